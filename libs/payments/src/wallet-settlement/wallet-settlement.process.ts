import { Injectable } from '@nestjs/common';
import type { RecordedEvent } from '@tally/eventstore';
import type { RequestContext } from '@tally/cells';
import type { ProcessManager } from '@tally/runtime';
import type { InvoiceFinalized, InvoicePayer } from '@tally/invoicing';
import type { WalletCredited } from '@tally/wallets';
import { walletSettlementDecider, type SettleOpenInvoices, type WalletSettlementInput, type WalletSettlementState } from '../domain/wallet-settlement.decider';
import { OpenInvoiceSettlement } from './open-invoice-settlement';

/** The invoice events that close an invoice for its settlement from the wallet. */
const CLOSING = ['InvoicePaid', 'InvoiceVoided', 'InvoiceMarkedUncollectible'];

/**
 * An invoice event after which the invoice waits for money: finalised naming the customer's wallet
 * (which settles it from then on), or finalised or left by an attempt with something to pay and
 * nothing collecting it.
 */
function waitsForPayment(event: RecordedEvent): boolean {
  const { wallet_id, awaits_payment } = event.data as Partial<InvoiceFinalized['data']>;
  return awaits_payment === true || (event.type === 'InvoiceFinalized' && wallet_id !== undefined);
}

/** A customer's money in one currency: what its wallet settles. */
const payerKey = (customerId: string, currency: string): string => `${customerId}:${currency}`;

/**
 * Settlement of open invoices by money that reaches a customer's wallet (see
 * walletSettlementDecider), one process per customer and currency. It starts with the first
 * invoice that waits for money, so a customer whose invoices are paid as they are finalised keeps
 * no stream, and an invoice paid at once costs the billing run no write.
 */
@Injectable()
export class WalletSettlementProcess implements ProcessManager<WalletSettlementState, WalletSettlementInput, SettleOpenInvoices> {
  readonly name = 'wallet_settlement';
  readonly streamPrefixes = ['invoice-', 'wallet-'];
  readonly decider = walletSettlementDecider;
  readonly startsOn = ['InvoiceAwaitingPayment'];

  constructor(private readonly settlement: OpenInvoiceSettlement) {}

  route(event: RecordedEvent): { processId: string; input: WalletSettlementInput } | undefined {
    if (event.type === 'WalletCredited') {
      const { wallet_id, customer_id, currency, transaction } = event.data as WalletCredited['data'];
      return { processId: payerKey(customer_id, currency), input: { id: event.id, type: 'WalletCredited', data: { wallet_id, transaction_id: transaction.transaction_id } } };
    }
    const { invoice_id, customer_id, currency } = event.data as InvoicePayer & { invoice_id: string };
    // Recorded before invoice events named their payer: such an invoice is settled by a pay request only.
    if (customer_id === undefined || currency === undefined) return undefined;
    const processId = payerKey(customer_id, currency);
    if (CLOSING.includes(event.type)) return { processId, input: { id: event.id, type: 'InvoiceClosed', data: { invoice_id } } };
    return waitsForPayment(event) ? { processId, input: { id: event.id, type: 'InvoiceAwaitingPayment', data: { invoice_id } } } : undefined;
  }

  async dispatch(command: SettleOpenInvoices, context: RequestContext): Promise<void> {
    const { wallet_id, invoice_ids, occasion } = command.data;
    await this.settlement.settle(context, wallet_id, invoice_ids, occasion);
  }
}
