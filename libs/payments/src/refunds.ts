import { Inject, Injectable } from '@nestjs/common';
import Big from 'big.js';
import { derivedId, DomainError, formatAmount, parseAmount, type IdGenerator } from '@tally/kernel';
import { ID_GENERATOR, onClockOf, type RequestContext } from '@tally/cells';
import { Clocks, CommandRuntime, Commands } from '@tally/runtime';
import { creditableAfterPayment, CreditNoteIssuance, creditNoteIdOfRefund, invoiceRefunds, type CreditNoteDecided } from '@tally/invoicing';
import { CustomerWallets } from '@tally/wallets';
import { paymentNotFound, type ReserveRefund } from './domain/payment.decider';
import type { PaymentRefundReserved } from './domain/payment.events';
import type { RefundAttemptOutcome, RefundState } from './domain/refund.decider';
import type { RefundDestination, RefundFailure, RefundReason } from './domain/refund.events';
import { refundAttemptKey } from './domain/refund-retries';
import { paymentAggregate } from './payment.aggregate';
import { PAYMENT_PROVIDER, type PaymentProvider } from './provider/payment-provider.port';
import { REFUND_ID_PREFIX, refundAggregate } from './refund.aggregate';
import type { RefundResource } from './refund.view';

export interface NewRefund {
  amount?: string;
  reason?: RefundReason;
  destination?: 'wallet';
}

/**
 * The wallet transaction of a refund to the wallet: the one wallets' credit-balance reaction posts
 * for the refund's credit note, so the wallet is credited once whichever of the two comes first.
 */
export const refundWalletTransactionId = (refundId: string): string => creditNoteWalletTransactionId(creditNoteIdOfRefund(refundId));

/** The wallet transaction that credits a credit note's amount to the wallet (the wallets' credit-balance reaction derives the same). */
export const creditNoteWalletTransactionId = (creditNoteId: string): string => derivedId('wtx', [creditNoteId, 'credit_balance']);

/**
 * Refunds of payments: the amount is reserved on the payment (never more than it took, also under
 * racing requests), then the refund and its credit note against the payment's invoice follow from
 * the reservation, then its attempts. Each step is idempotent, so the refund attempts process
 * redoes what a request that died left undone.
 */
@Injectable()
export class Refunds {
  constructor(
    private readonly runtime: CommandRuntime,
    private readonly commands: Commands,
    private readonly clocks: Clocks,
    private readonly wallets: CustomerWallets,
    private readonly creditNotes: CreditNoteIssuance,
    @Inject(ID_GENERATOR) private readonly ids: IdGenerator,
    @Inject(PAYMENT_PROVIDER) private readonly provider: PaymentProvider,
  ) {}

  async create(context: RequestContext, paymentId: string, request: NewRefund): Promise<RefundResource> {
    const cell = this.runtime.cellOf(context);
    const payment = await this.runtime.load(cell, paymentAggregate, paymentId, context);
    if (payment.state.status === 'none') throw paymentNotFound(paymentId);
    await this.assertCreditable(context, payment.state.invoiceId, paymentId, request.amount);
    const onClock = onClockOf(context, payment.clockId);
    const refundId = this.ids.next(REFUND_ID_PREFIX);
    // A payment from the wallet goes back to it: the card provider never saw it.
    const destination: RefundDestination = payment.state.provider === 'wallet' || request.destination === 'wallet' ? 'wallet' : 'original_method';
    const reserve = (now: string): ReserveRefund => ({
      type: 'ReserveRefund',
      data: { payment_id: paymentId, refund_id: refundId, amount: request.amount ?? null, reason: request.reason ?? 'customer_request', destination, now },
    });
    const reserved = await this.commands.send(paymentAggregate, paymentId, reserve, onClock);
    const reservation = reserved.appended.find((event) => event.type === 'PaymentRefundReserved');
    if (!reservation) throw new Error(`Refund ${refundId} of payment ${paymentId} was not reserved`);
    await this.open(onClock, reservation.data as PaymentRefundReserved['data']);
    await this.attempt(onClock, refundId, 1);
    return (await this.runtime.load(cell, refundAggregate, refundId, onClock)).resource!;
  }

  /**
   * The refund's credit note must fit on the invoice (post-payment credit notes to the wallet may
   * have credited what was paid already): refused before anything is reserved. The invoice is read
   * before the payment, so a refund racing this one shows on the payment before its credit note
   * shows on the invoice, and only the payment's reservation refuses what the payment cannot give.
   */
  private async assertCreditable(context: RequestContext, invoiceId: string, paymentId: string, amount: string | undefined): Promise<void> {
    const cell = this.runtime.cellOf(context);
    const { state: invoice } = await this.runtime.load(cell, invoiceRefunds, invoiceId, context);
    const { state: payment } = await this.runtime.load(cell, paymentAggregate, paymentId, context);
    if (invoice.status === 'none' || (payment.status !== 'succeeded' && payment.status !== 'partially_refunded')) return;
    const leftOnPayment = new Big(payment.amount).minus(payment.refunded);
    const asked = amount === undefined ? leftOnPayment : parseOrUndefined(amount);
    const left = creditableAfterPayment(invoice);
    if (asked && asked.lte(leftOnPayment) && asked.gt(left)) {
      throw DomainError.conflict('credit_note.exceeds_invoice', `Invoice ${invoice.id} has ${formatAmount(left, invoice.currency)} ${invoice.currency} left to credit of what was paid; its credit notes took the rest`);
    }
  }

  /**
   * The refund of a credit note asked on the invoice: reserved on its payment under the note's
   * refund id (once), the refund attempts process making it from there. A payment that cannot give
   * it (refunded meanwhile, its window closed) leaves the note `pending_manual` for an operator.
   */
  async refundCreditNote(context: RequestContext, note: CreditNoteDecided['data']): Promise<void> {
    const { payment_id, refund_id, amount, reason } = note;
    if (!payment_id || !refund_id) return;
    const reserve = (now: string): ReserveRefund => ({ type: 'ReserveRefund', data: { payment_id, refund_id, amount, reason, destination: 'original_method', now } });
    try {
      await this.commands.send(paymentAggregate, payment_id, reserve, context);
    } catch (error) {
      if (!(error instanceof DomainError) || error.code === 'request.concurrent_update') throw error;
      await this.refused(context, note, { kind: 'declined', code: error.code, message: error.message });
    }
  }

  /** The refund of a credit note its payment refused, created failed in one append (never attempted): its note goes `pending_manual`. */
  private async refused(context: RequestContext, note: CreditNoteDecided['data'], refused: RefundFailure): Promise<void> {
    const { payment_id, refund_id, invoice_id, credit_note_id, amount, reason, created_at } = note;
    const cell = this.runtime.cellOf(context);
    const { state: payment } = await this.runtime.load(cell, paymentAggregate, payment_id!, context);
    if (payment.status === 'none') throw paymentNotFound(payment_id!);
    const { customerId: customer_id, currency, provider } = payment;
    const data = { refund_id: refund_id!, payment_id: payment_id!, invoice_id, customer_id, credit_note_id, amount, currency, reason, destination: 'original_method' as const, provider, created_at, idempotency_key: refundAttemptKey(refund_id!, 1) };
    await this.commands.send(refundAggregate, refund_id!, { type: 'CreateRefund', data: { ...data, refused } }, context);
    await this.recordOnCreditNote(context, refund_id!, 'failed', true);
  }

  /** The refund a reservation made, and its credit note against the payment's invoice (`refund`, or `credit_balance` to the wallet). */
  async open(context: RequestContext, reservation: PaymentRefundReserved['data']): Promise<void> {
    const { payment_id, refund_id, amount, reason, destination, reserved_at } = reservation;
    const cell = this.runtime.cellOf(context);
    const { state: payment } = await this.runtime.load(cell, paymentAggregate, payment_id, context);
    if (payment.status === 'none') throw paymentNotFound(payment_id);
    const credit_note_id = creditNoteIdOfRefund(refund_id);
    const { invoiceId: invoice_id, customerId: customer_id, currency, provider } = payment;
    const created = { refund_id, payment_id, invoice_id, customer_id, credit_note_id, amount, currency, reason, destination, provider, created_at: reserved_at, idempotency_key: refundAttemptKey(refund_id, 1) };
    await this.commands.send(refundAggregate, refund_id, { type: 'CreateRefund', data: created }, context);
    const outcome = destination === 'wallet' ? 'credit_balance' : 'refund';
    const note = { invoice_id, credit_note_id, reason, memo: null, amount, lines: null, now: reserved_at, outcome, refund_id, payment_id } as const;
    await this.creditNotes.issue(context, invoice_id, credit_note_id, () => ({ type: 'IssueCreditNote', data: note }));
  }

  /** Attempt `attempt` of the refund, unless it was made already: the money returned, or the provider's refusal recorded (and the next attempt scheduled). */
  async attempt(context: RequestContext, refundId: string, attempt: number): Promise<void> {
    const cell = this.runtime.cellOf(context);
    const refund = await this.runtime.load(cell, refundAggregate, refundId, context);
    const { state } = refund;
    if (state.status !== 'pending' || state.attempts !== attempt - 1) return;
    const now = (await this.clocks.now(cell, refund.clockId)).toISOString();
    const outcome = state.destination === 'wallet' ? await this.toWallet(context, state, now) : await this.toMethod(context, state, attempt, now);
    const recorded = await this.commands.send(refundAggregate, refundId, { type: 'RecordRefundAttempt', data: { refund_id: refundId, attempt, outcome } }, context);
    if (recorded.appended.length === 0) return;
    await this.recordOnCreditNote(context, refundId, outcome.status, recorded.appended.some((event) => event.type === 'RefundFailed'));
  }

  /** An attempt's outcome on the refund's credit note: its `refund_status`, and `pending_manual` once the last attempt failed. */
  async recordOnCreditNote(context: RequestContext, refundId: string, refundStatus: 'succeeded' | 'failed', exhausted: boolean): Promise<void> {
    const { state } = await this.runtime.load(this.runtime.cellOf(context), refundAggregate, refundId, context);
    if (state.status === 'none') return;
    const data = { invoice_id: state.invoiceId, credit_note_id: state.creditNoteId, refund_status: refundStatus, exhausted };
    await this.commands.send(invoiceRefunds, state.invoiceId, { type: 'RecordCreditNoteRefund', data }, context);
  }

  private async toWallet(context: RequestContext, refund: Pending, at: string): Promise<RefundAttemptOutcome> {
    const transaction_id = refundWalletTransactionId(refund.id);
    const credit = { customer_id: refund.customerId, currency: refund.currency, amount: refund.amount, reason: 'refund', transaction_id, description: `Refund ${refund.id}` } as const;
    const posted = await this.wallets.credit(context, { ...credit, source: { type: 'refund', id: refund.id } });
    return { status: 'succeeded', provider_refund_id: null, wallet_transaction_id: posted.transaction_id, at };
  }

  /**
   * Asks the provider under the attempt's key. A retry after a declined attempt asks under a new
   * key, so first it looks the refund up: if an earlier attempt was paid after all, that is the
   * refund, never a second one.
   */
  private async toMethod(context: RequestContext, refund: Pending, attempt: number, at: string): Promise<RefundAttemptOutcome> {
    const cell = this.runtime.cellOf(context);
    const { state: payment } = await this.runtime.load(cell, paymentAggregate, refund.paymentId, context);
    if (payment.status === 'none' || !payment.providerId) throw new Error(`Payment ${refund.paymentId} of refund ${refund.id} has no provider payment`);
    const providerPaymentId = payment.providerId;
    if (attempt > 1 && refund.idempotencyKey === refundAttemptKey(refund.id, attempt)) {
      const made = await this.provider.findRefund({ providerPaymentId, reference: refund.id });
      if (made) return { status: 'succeeded', provider_refund_id: made.providerRefundId, wallet_transaction_id: null, at };
    }
    const answer = await this.provider.refund({ providerPaymentId, amount: refund.amount, currency: refund.currency, now: at, idempotencyKey: refund.idempotencyKey, reference: refund.id });
    if (answer.status === 'succeeded') return { status: 'succeeded', provider_refund_id: answer.providerRefundId, wallet_transaction_id: null, at };
    return { status: 'failed', failure: { kind: answer.ambiguous ? 'ambiguous' : 'declined', code: answer.code, message: answer.message }, at };
  }
}

type Pending = Exclude<RefundState, { status: 'none' }>;

function parseOrUndefined(amount: string): Big | undefined {
  try {
    return parseAmount(amount);
  } catch {
    return undefined;
  }
}
