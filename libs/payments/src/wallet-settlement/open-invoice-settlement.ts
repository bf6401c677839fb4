import { Injectable } from '@nestjs/common';
import type { RequestContext } from '@tally/cells';
import { onClockOf } from '@tally/cells';
import { CommandRuntime, Commands, commandStep } from '@tally/runtime';
import { invoiceAggregate, invoiceCollection, InvoiceWallets, isPayable, walletSettlementPaymentId, type InvoicePaymentStarted } from '@tally/invoicing';
import { oldestDueFirst } from '../domain/settlement-order';
import { WalletPayments } from './wallet-payments';

/**
 * Money that reached a wallet while invoices it settles are open: each is settled, oldest due
 * first, as far as the balance goes. One at a time, so the oldest takes what it needs before the
 * next gets the rest; each settlement's payment id derives from the invoice and the occasion (the
 * credit, or the failed charge), so a redelivered occasion settles nothing twice.
 */
@Injectable()
export class OpenInvoiceSettlement {
  constructor(
    private readonly runtime: CommandRuntime,
    private readonly commands: Commands,
    private readonly walletPayments: WalletPayments,
    private readonly wallets: InvoiceWallets,
  ) {}

  async settle(context: RequestContext, walletId: string, invoiceIds: readonly string[], occasion: string): Promise<void> {
    for (const invoice of await this.waiting(context, invoiceIds)) {
      if (!(await this.wallets.isFunded(context, walletId))) return;
      // A step of its own per invoice: the wallet takes a debit for each, under the one command of the process.
      const onClock = commandStep(onClockOf(context, invoice.clockId), invoice.id);
      const payment_id = walletSettlementPaymentId(invoice.id, occasion);
      const data = { invoice_id: invoice.id, payment_id, payment_method_id: walletId, reason: 'automatic' as const, source: 'wallet' as const };
      const started = await this.commands.send(invoiceCollection, invoice.id, { type: 'StartInvoicePayment', data }, onClock);
      const attempt = started.appended.find((event) => event.type === 'InvoicePaymentStarted');
      const settled = attempt && (await this.walletPayments.settle(onClock, attempt.data as InvoicePaymentStarted['data']));
      if (settled?.state.status === 'canceled') return;
    }
  }

  /** The invoices that still wait for money, oldest due first: not paid or closed, nor under another attempt (whose outcome decides what is left). */
  private async waiting(context: RequestContext, invoiceIds: readonly string[]): Promise<{ id: string; dueAt: string | null; clockId: string | undefined }[]> {
    const loads = await this.runtime.loadEach(invoiceAggregate, invoiceIds.map((id) => ({ id, context })));
    const waiting = loads.flatMap((load) => {
      if (load.status === 'rejected') throw load.reason;
      const { state, clockId } = load.value;
      return state.status !== 'none' && isPayable(state) && !state.openPayment ? [{ id: state.id, dueAt: state.dueAt, clockId }] : [];
    });
    return oldestDueFirst(waiting);
  }
}
