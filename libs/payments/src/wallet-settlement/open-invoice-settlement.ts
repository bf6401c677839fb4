import { Injectable } from '@nestjs/common';
import type { RequestContext } from '@tally/cells';
import { onClockOf } from '@tally/cells';
import { CommandRuntime, Commands, commandStep } from '@tally/runtime';
import { invoiceAggregate, invoiceCollection, InvoiceWallets, isPayable, walletSettlementPaymentId, type InvoicePaymentStarted } from '@tally/invoicing';
import { WalletPayments } from './wallet-payments';

/**
 * Money that reached a wallet while invoices it settles are open: each, in the order given
 * (oldest due first), is settled as far as the balance goes. One at a time, so the oldest takes
 * what it needs before the next gets the rest; each settlement's payment id derives from the
 * invoice and the credit, so a redelivered credit settles nothing twice.
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
    const cell = this.runtime.cellOf(context);
    for (const invoiceId of invoiceIds) {
      if (!(await this.wallets.isFunded(context, walletId))) return;
      const invoice = await this.runtime.load(cell, invoiceAggregate, invoiceId, context);
      // Paid, closed, or under another attempt meanwhile (whose outcome decides what is left): the next.
      if (invoice.state.status === 'none' || !isPayable(invoice.state) || invoice.state.openPayment) continue;
      // A step of its own per invoice: the wallet takes a debit for each, under the one command of the process.
      const onClock = commandStep(onClockOf(context, invoice.clockId), invoiceId);
      const payment_id = walletSettlementPaymentId(invoiceId, occasion);
      const data = { invoice_id: invoiceId, payment_id, payment_method_id: walletId, reason: 'automatic' as const, source: 'wallet' as const };
      const started = await this.commands.send(invoiceCollection, invoiceId, { type: 'StartInvoicePayment', data }, onClock);
      const attempt = started.appended.find((event) => event.type === 'InvoicePaymentStarted');
      const settled = attempt && (await this.walletPayments.settle(onClock, attempt.data as InvoicePaymentStarted['data']));
      if (settled?.state.status === 'canceled') return;
    }
  }
}
