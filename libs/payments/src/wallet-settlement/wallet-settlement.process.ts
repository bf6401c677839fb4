import { Injectable } from '@nestjs/common';
import type { RecordedEvent } from '@tally/eventstore';
import type { RequestContext } from '@tally/cells';
import type { ProcessManager } from '@tally/runtime';
import type { InvoiceFinalized } from '@tally/invoicing';
import type { WalletCredited } from '@tally/wallets';
import { walletSettlementDecider, type SettleOpenInvoices, type WalletSettlementInput, type WalletSettlementState } from '../domain/wallet-settlement.decider';
import { OpenInvoiceSettlement } from './open-invoice-settlement';

/** The invoice events that close an invoice for its wallet's settlement; each names the wallet when the invoice has one. */
const CLOSING = ['InvoicePaid', 'InvoiceVoided', 'InvoiceMarkedUncollectible'];

/**
 * Settlement of open invoices by money that reaches a wallet (see walletSettlementDecider), one
 * process per wallet. Only invoices finalised naming a wallet enter it: an invoice of a customer
 * without a wallet routes nowhere and costs the billing run nothing.
 */
@Injectable()
export class WalletSettlementProcess implements ProcessManager<WalletSettlementState, WalletSettlementInput, SettleOpenInvoices> {
  readonly name = 'wallet_settlement';
  readonly streamPrefixes = ['invoice-', 'wallet-'];
  readonly decider = walletSettlementDecider;
  /** A wallet credited before any invoice named it keeps no stream. */
  readonly startsOn = ['InvoiceFinalized'];

  constructor(private readonly settlement: OpenInvoiceSettlement) {}

  route(event: RecordedEvent): { processId: string; input: WalletSettlementInput } | undefined {
    if (event.type === 'InvoiceFinalized') {
      const { invoice_id, wallet_id, due_at } = event.data as InvoiceFinalized['data'];
      return wallet_id ? { processId: wallet_id, input: { id: event.id, type: 'InvoiceFinalized', data: { invoice_id, wallet_id, due_at } } } : undefined;
    }
    if (CLOSING.includes(event.type)) {
      const { invoice_id, wallet_id } = event.data as { invoice_id: string; wallet_id?: string };
      return wallet_id ? { processId: wallet_id, input: { id: event.id, type: 'InvoiceClosed', data: { invoice_id, wallet_id } } } : undefined;
    }
    if (event.type === 'WalletCredited') {
      const { wallet_id, transaction } = event.data as WalletCredited['data'];
      return { processId: wallet_id, input: { id: event.id, type: 'WalletCredited', data: { wallet_id, transaction_id: transaction.transaction_id } } };
    }
    return undefined;
  }

  async dispatch(command: SettleOpenInvoices, context: RequestContext): Promise<void> {
    const { wallet_id, invoice_ids, occasion } = command.data;
    await this.settlement.settle(context, wallet_id, invoice_ids, occasion);
  }
}
