import Big from 'big.js';
import { assertNever, checkMetadata, DomainError, formatAmount, isWholeMinorUnits, mergeMetadata, parseAmount, type Command, type Decider, type FieldError, type Metadata, type PaymentError } from '@tally/kernel';
import type { TaxBehavior } from '@tally/tax/published';
import { automaticPaymentId, DEFAULT_DUNNING, walletSettlementPaymentId, type DunningFinalAction, type DunningTerms } from './collection-terms';
import { creditedLine, leftToCredit, spreadOverLines, type CreditableLine } from './credit-note-lines';
import { refundIdOfCreditNote } from './credit-note-refunds';
import { checkCurrency, checkPricedLines, MAX_INVOICE_LINES } from './invoice-line-input';
import type {
  CreditNoteDecided,
  CreditNoteIssued,
  CreditNoteOutcome,
  CreditNoteOutcomeKind,
  CreditNoteReason,
  CreditNoteResolution,
  DiscountTerms,
  InvoiceCreated,
  InvoiceDraftUpdated,
  InvoiceEvent,
  InvoiceLineData,
  InvoicePayer,
  InvoicePaymentStarted,
  InvoiceStatus,
  InvoiceTotalsData,
  PaymentNotAppliedReason,
} from './invoice.events';

export interface InvoiceFacts {
  status: InvoiceStatus;
  id: string;
  customerId: string;
  subscriptionId: string | null;
  currency: string;
  taxBehavior: TaxBehavior;
  autoCharge: boolean;
  description: string | null;
  dueAt: string | null;
  daysUntilDue: number | null;
  periodStart: string | null;
  periodEnd: string | null;
  metadata: Metadata;
  lines: readonly InvoiceLineData[];
  discounts: readonly DiscountTerms[];
  /** The method to charge: the one the invoice was issued with, then the last an automatic charge or a retry tried. */
  paymentMethodId: string | null;
  /** The retry terms of a failed payment (null: no dunning). */
  dunning: DunningTerms | null;
  /** Dunning's final action was taken. */
  retriesExhausted: boolean;
  /** Set at finalisation. */
  number: string | null;
  total: string;
  amountPaid: string;
  /** What credit notes issued before payment took off what is left to pay. */
  prePaymentCredit: string;
  /** What all credit notes credited. */
  credited: string;
  payments: readonly string[];
  /** The payment attempt awaiting its outcome, if any: no other starts meanwhile. */
  openPayment: string | null;
  /** What that attempt charges: it must stay applicable until the outcome is known. */
  openPaymentAmount: string | null;
  /** Set while that attempt is a settlement from the wallet; `atFinalization`: the finalisation's, after which the method is charged for the rest. */
  openWalletAttempt: { atFinalization: boolean } | null;
  /** The customer's wallet that settles the invoice (named at finalisation or by a settlement), if any. */
  walletId: string | null;
  /** What settlements from the wallet paid of it. */
  walletPaid: string;
  /** Succeeded payments the invoice could not take (to be returned to the customer). */
  unappliedPayments: readonly string[];
  /** Every attempt started, oldest first. */
  attempts: readonly string[];
  /** Credit notes decided and waiting for their number (see CreditNoteDecided). */
  pendingCreditNotes: readonly CreditNoteDecided['data'][];
  /** After finalisation: each line's total (after discounts, with tax), the tax in it, and what credit notes credited of it. */
  lineTotals: readonly CreditableLine[];
  /** Each credit note's outcome, the payment it returns and its amount, oldest first. */
  creditNoteOutcomes: readonly ({ creditNoteId: string; refundId: string | null; paymentId: string | null; amount: string } & CreditNoteOutcome)[];
  /** The payments applied, and how much of each. */
  appliedPayments: readonly { paymentId: string; amount: string }[];
}

export type InvoiceState = { status: 'none' } | InvoiceFacts;

/** `now` (ISO 8601 UTC) comes from the invoice's clock; a due date must lie after it. */
export type CreateInvoice = Command<'CreateInvoice', InvoiceCreated['data'] & { now: string }>;
export type UpdateInvoiceDraft = Command<'UpdateInvoiceDraft', Omit<InvoiceDraftUpdated['data'], 'metadata'> & { metadata?: Metadata; now: string }>;
export type AddInvoiceLine = Command<'AddInvoiceLine', { invoice_id: string; line: InvoiceLineData }>;
export type RemoveInvoiceLine = Command<'RemoveInvoiceLine', { invoice_id: string; line_id: string }>;
/** `line_ids`: the lines the totals were computed for, in order; another set means the draft changed meanwhile. */
export type RecordInvoiceTax = Command<'RecordInvoiceTax', { invoice_id: string; line_ids: string[]; totals: InvoiceTotalsData }>;
/** The customer's wallet in the invoice's currency at finalisation: the invoice names it, and, when it has a balance, is settled from it first. */
export interface FinalizationWallet {
  id: string;
  funded: boolean;
}

/** `payment_method_id`: what an auto-charged invoice that names no method is charged with (its customer's default then). */
export type FinalizeInvoice = Command<
  'FinalizeInvoice',
  { invoice_id: string; number: string; now: string; line_ids: string[]; totals: InvoiceTotalsData; payment_method_id?: string | null; wallet?: FinalizationWallet | null }
>;
/**
 * Created and finalised at once (a subscription's invoice, its number reserved before): one
 * append of its creation, its finalisation and, when it is charged automatically with a method,
 * the charge's attempt. Issued again with the same number, it changes nothing.
 */
export type IssueInvoice = Command<'IssueInvoice', { creation: CreateInvoice['data']; number: string; line_ids: string[]; totals: InvoiceTotalsData; wallet?: FinalizationWallet | null }>;
/** Dunning's retries are used up: its final action on the invoice (a write-off) and for its subscription. */
export type ExhaustInvoiceRetries = Command<'ExhaustInvoiceRetries', { invoice_id: string; final_action: Exclude<DunningFinalAction, 'leave_past_due'> }>;
export type ApplyInvoicePayment = Command<'ApplyInvoicePayment', { invoice_id: string; payment_id: string; amount: string }>;
/** `amount`: a part of what is due (a partial payment); without it, all that is due. `source: wallet`: `payment_method_id` is the customer's wallet. */
export type StartInvoicePayment = Command<
  'StartInvoicePayment',
  { invoice_id: string; payment_id: string; payment_method_id: string; reason: InvoicePaymentStarted['data']['reason']; amount?: string; return_url?: string; source?: 'wallet' }
>;
/** The attempt's payment failed or was canceled; a success closes it through ApplyInvoicePayment. */
export type CloseInvoicePayment = Command<'CloseInvoicePayment', { invoice_id: string; payment_id: string; outcome: 'failed' | 'canceled'; last_error: PaymentError | null }>;
/**
 * Refused while a payment attempt is open, unless `cancel_open_payment` (a policy such as a pause
 * or an expired first payment, not a request): the payment flow then cancels the waiting payment,
 * and a payment that succeeds anyway is not applied but returned.
 */
export type VoidInvoice = Command<'VoidInvoice', { invoice_id: string; cancel_open_payment?: boolean }>;
export type MarkInvoiceUncollectible = Command<'MarkInvoiceUncollectible', { invoice_id: string; cancel_open_payment?: boolean }>;
/**
 * By `amount` (spread over the lines), or by `lines` (each line's amount); exactly one of the two.
 * `outcome`: by default `none` on an invoice not yet paid, `credit_balance` on a paid one. A refund
 * issues its own, with `refund_id` and `payment_id`.
 */
export type IssueCreditNote = Command<
  'IssueCreditNote',
  {
    invoice_id: string;
    credit_note_id: string;
    reason: CreditNoteReason;
    memo: string | null;
    amount: string | null;
    lines: { line_id: string; amount: string }[] | null;
    now: string;
    outcome?: CreditNoteOutcomeKind;
    refund_id?: string;
    payment_id?: string;
  }
>;
/** The credit note's number, from the tenant's credit-note sequence. */
export type NumberCreditNote = Command<'NumberCreditNote', { invoice_id: string; credit_note_id: string; number: string }>;
/** An attempt of the credit note's refund came to `refund_status`; `exhausted`: it was the last, and failed. */
export type RecordCreditNoteRefund = Command<'RecordCreditNoteRefund', { invoice_id: string; credit_note_id: string; refund_status: 'succeeded' | 'failed'; exhausted: boolean }>;
/** An operator closes a `pending_manual` credit note. */
export type ResolveCreditNote = Command<'ResolveCreditNote', { invoice_id: string; credit_note_id: string; resolution: CreditNoteResolution; now: string }>;

export type InvoiceCommand =
  | CreateInvoice
  | UpdateInvoiceDraft
  | AddInvoiceLine
  | RemoveInvoiceLine
  | RecordInvoiceTax
  | FinalizeInvoice
  | IssueInvoice
  | ExhaustInvoiceRetries
  | ApplyInvoicePayment
  | StartInvoicePayment
  | CloseInvoicePayment
  | VoidInvoice
  | MarkInvoiceUncollectible
  | IssueCreditNote
  | NumberCreditNote
  | RecordCreditNoteRefund
  | ResolveCreditNote;

/** Days until due when the draft names none: an auto-charged invoice is due at once, one sent for payment in 30 days (Stripe's default). */
export const DEFAULT_DAYS_UNTIL_DUE = { auto_charge: 0, send_invoice: 30 } as const;

const ZERO = new Big(0);
/** The occasion of the settlement from the wallet that a finalisation starts. */
const FINALIZATION = 'finalization';
const notFound = (id: string) => DomainError.notFound('invoice.not_found', `No invoice ${id}`);

/** The answer for an operation the invoice's status forbids (docs/errors.md). */
function refusedIn(state: InvoiceFacts, operation: string): DomainError {
  switch (state.status) {
    case 'draft':
      return DomainError.conflict('invoice.not_open', `Invoice ${state.id} is a draft; ${operation} needs a finalised invoice`);
    case 'paid':
      return DomainError.conflict('invoice.already_paid', `Invoice ${state.id} is paid; ${operation} is not possible`);
    case 'void':
      return DomainError.conflict('invoice.voided', `Invoice ${state.id} is void; it cannot change again`);
    case 'uncollectible':
      return DomainError.conflict('invoice.uncollectible', `Invoice ${state.id} is uncollectible; ${operation} is not possible`);
    case 'partially_paid':
      return DomainError.conflict('invoice.has_payments', `Invoice ${state.id} has payments; ${operation} is not possible`);
    default:
      return DomainError.conflict('invoice.not_draft', `Invoice ${state.id} is ${state.status}; ${operation} is for drafts only`);
  }
}

const paymentInProgress = (state: InvoiceFacts, operation: string) =>
  DomainError.conflict('invoice.payment_in_progress', `Payment ${state.openPayment} of invoice ${state.id} is still in progress; ${operation} waits for its outcome (or cancel the payment)`);

const notDraft = (state: InvoiceFacts, operation: string) =>
  DomainError.conflict('invoice.not_draft', `Invoice ${state.id} is ${state.status}; ${operation} is possible on drafts only (corrections go through credit notes)`);

const invalid = (code: string, field: string, message: string) => DomainError.invalid(code, message, [{ field, code, message }]);

/** What post-payment credit notes (refunds, credits to the wallet) may still credit: what was paid, less what they credited. */
export function creditableAfterPayment(state: Pick<InvoiceFacts, 'amountPaid' | 'credited' | 'prePaymentCredit'>): Big {
  return new Big(state.amountPaid).minus(new Big(state.credited).minus(state.prePaymentCredit));
}

/** Whether a payment may start: the invoice is open or partly paid and something is left to pay. */
export const isPayable = (state: InvoiceFacts): boolean => (state.status === 'open' || state.status === 'partially_paid') && amountDue(state).gt(0);

export function assertPayable(state: InvoiceFacts): void {
  if (isPayable(state)) return;
  throw DomainError.conflict('invoice.not_payable', `Invoice ${state.id} is ${state.status}${state.status === 'open' ? ' with nothing left to pay' : ''}; only open invoices with an amount due can be paid`);
}

/** What is left to pay: total − paid − credit notes issued before payment; never below zero. */
export function amountDue(state: Pick<InvoiceFacts, 'status' | 'total' | 'amountPaid' | 'prePaymentCredit'>): Big {
  if (state.status === 'void' || state.status === 'paid') return ZERO;
  const due = new Big(state.total).minus(state.amountPaid).minus(state.prePaymentCredit);
  return due.lt(0) ? ZERO : due;
}

export const invoiceDecider: Decider<InvoiceState, InvoiceCommand, InvoiceEvent> = {
  initialState: () => ({ status: 'none' }),

  decide(command, state) {
    if (command.type === 'CreateInvoice') return state.status === 'none' ? [created(command.data)] : [];
    if (command.type === 'IssueInvoice') {
      const { creation, ...finalization } = command.data;
      const issue = { ...finalization, invoice_id: creation.invoice_id, now: creation.now };
      if (state.status !== 'none') return finalize(state, issue);
      const creating = created(creation);
      return [creating, ...finalize(invoiceDecider.evolve(state, creating) as InvoiceFacts, issue)];
    }
    if (state.status === 'none') throw notFound(command.data.invoice_id);
    const id = state.id;
    switch (command.type) {
      case 'UpdateInvoiceDraft': {
        const { invoice_id: _id, now, metadata, ...fields } = command.data;
        // Once finalised only metadata may change (as Stripe allows); the rest is locked.
        if (state.status !== 'draft' && Object.values(fields).some((value) => value !== undefined)) throw notDraft(state, 'changing the invoice');
        if (fields.due_at !== undefined && fields.due_at !== null && fields.due_at <= now) throw invalid('invoice.due_at_in_past', 'due_at', 'due_at lies in the future');
        const changes: { -readonly [K in keyof Omit<InvoiceDraftUpdated['data'], 'invoice_id'>]: InvoiceDraftUpdated['data'][K] } = {};
        if (fields.description !== undefined && fields.description !== state.description) changes.description = fields.description;
        if (fields.auto_charge !== undefined && fields.auto_charge !== state.autoCharge) changes.auto_charge = fields.auto_charge;
        // A due date replaces days until due, and the reverse.
        if (fields.due_at !== undefined && fields.due_at !== state.dueAt) Object.assign(changes, { due_at: fields.due_at }, fields.due_at !== null && state.daysUntilDue !== null && { days_until_due: null });
        if (fields.days_until_due !== undefined && fields.days_until_due !== state.daysUntilDue) {
          Object.assign(changes, { days_until_due: fields.days_until_due }, fields.days_until_due !== null && state.dueAt !== null && changes.due_at === undefined && { due_at: null });
        }
        if (metadata !== undefined) {
          const merged = mergeMetadata(state.metadata, metadata);
          if (JSON.stringify(merged) !== JSON.stringify(state.metadata)) changes.metadata = merged;
        }
        return Object.keys(changes).length === 0 ? [] : [{ type: 'InvoiceDraftUpdated', data: { invoice_id: id, ...changes } }];
      }
      case 'AddInvoiceLine': {
        if (state.status !== 'draft') throw notDraft(state, 'adding a line');
        if (state.lines.some((line) => line.line_id === command.data.line.line_id)) return [];
        if (state.lines.length >= MAX_INVOICE_LINES) throw invalid('invoice.too_many_lines', 'lines', `an invoice has at most ${MAX_INVOICE_LINES} lines`);
        return [{ type: 'InvoiceLineAdded', data: { invoice_id: id, line: command.data.line } }];
      }
      case 'RemoveInvoiceLine': {
        if (state.status !== 'draft') throw notDraft(state, 'removing a line');
        if (!state.lines.some((line) => line.line_id === command.data.line_id)) throw lineNotFound(command.data.line_id);
        return [{ type: 'InvoiceLineRemoved', data: { invoice_id: id, line_id: command.data.line_id } }];
      }
      case 'RecordInvoiceTax': {
        if (state.status !== 'draft') throw notDraft(state, 'recomputing tax');
        checkTotals(state, command.data.line_ids, command.data.totals);
        return [{ type: 'InvoiceTaxComputed', data: { invoice_id: id, totals: command.data.totals } }];
      }
      case 'FinalizeInvoice':
        return finalize(state, command.data);
      case 'ExhaustInvoiceRetries': {
        const { final_action } = command.data;
        if (state.retriesExhausted || (state.status !== 'open' && state.status !== 'partially_paid')) return [];
        const exhausted: InvoiceEvent = { type: 'InvoiceRetriesExhausted', data: { invoice_id: id, subscription_id: state.subscriptionId, final_action } };
        // A write-off by policy: an attempt still open is canceled by the payment flow (or its money returned).
        return final_action === 'mark_uncollectible' ? [exhausted, { type: 'InvoiceMarkedUncollectible', data: { invoice_id: id, ...payerOf(state) } }] : [exhausted];
      }
      case 'ApplyInvoicePayment': {
        // The money was taken: a payment the invoice cannot take is recorded as not applied, never refused.
        const { payment_id } = command.data;
        if (state.payments.includes(payment_id) || state.unappliedPayments.includes(payment_id)) return [];
        const amount = positiveAmount(command.data.amount, state.currency, 'amount', 'invoice.invalid_payment_amount');
        const due = amountDue(state);
        const reason = notApplicableBecause(state, payment_id, amount);
        if (reason) return [{ type: 'InvoicePaymentNotApplied', data: { invoice_id: id, payment_id, amount: amount.toFixed(), reason } }];
        const applied: InvoiceEvent = { type: 'InvoicePaymentApplied', data: { invoice_id: id, payment_id, amount: amount.toFixed() } };
        if (amount.eq(due)) return [applied, paid(state)];
        return [applied, ...chargeAfterWallet(state, applied)];
      }
      case 'StartInvoicePayment': {
        const { payment_id, payment_method_id, reason, return_url, source } = command.data;
        if (state.attempts.includes(payment_id)) return [];
        assertPayable(state);
        const due = amountDue(state);
        if (state.openPayment) throw paymentInProgress(state, 'another payment');
        const amount = command.data.amount === undefined ? due : positiveAmount(command.data.amount, state.currency, 'amount', 'invoice.invalid_payment_amount');
        if (amount.gt(due)) {
          throw DomainError.conflict('invoice.payment_exceeds_amount_due', `${amount.toFixed()} is more than the ${formatAmount(due, state.currency)} ${state.currency} due on invoice ${id}`);
        }
        const started: InvoiceEvent = {
          type: 'InvoicePaymentStarted',
          data: {
            invoice_id: id,
            payment_id,
            customer_id: state.customerId,
            subscription_id: state.subscriptionId,
            payment_method_id,
            amount: formatAmount(amount, state.currency),
            currency: state.currency,
            reason,
            dunning: state.dunning,
            ...(return_url !== undefined && { return_url }),
            ...(source !== undefined && { source }),
          },
        };
        return [started];
      }
      case 'CloseInvoicePayment': {
        const { payment_id, outcome, last_error } = command.data;
        if (state.openPayment !== payment_id) return [];
        const ended = (awaits_payment: boolean): InvoiceEvent =>
          outcome === 'failed' && last_error
            ? { type: 'InvoicePaymentFailed', data: { invoice_id: id, ...payerOf(state), payment_id, subscription_id: state.subscriptionId, last_error, awaits_payment } }
            : { type: 'InvoicePaymentCanceled', data: { invoice_id: id, ...payerOf(state), payment_id, awaits_payment } };
        const charge = chargeAfterWallet(state, ended(false));
        // Something left to pay and no charge follows: the invoice waits for its customer's payment again.
        return [ended(charge.length === 0 && isPayable(state)), ...charge];
      }
      case 'VoidInvoice': {
        if (state.status === 'void') return [];
        // Stripe voids an invoice the customer's balance paid a part of, and gives the balance back: so does the wallet here.
        const paidByWalletOnly = state.status === 'partially_paid' && new Big(state.amountPaid).eq(state.walletPaid);
        if (state.status !== 'open' && !paidByWalletOnly) throw refusedIn(state, 'voiding');
        if (state.openPayment && !command.data.cancel_open_payment) throw paymentInProgress(state, 'voiding');
        const returned = state.walletId && new Big(state.walletPaid).gt(0) ? { wallet_id: state.walletId, wallet_returned: state.walletPaid } : {};
        return [{ type: 'InvoiceVoided', data: { invoice_id: id, ...payerOf(state), ...returned } }];
      }
      case 'MarkInvoiceUncollectible': {
        if (state.status === 'uncollectible') return [];
        if (state.status !== 'open' && state.status !== 'partially_paid') throw refusedIn(state, 'marking it uncollectible');
        if (state.openPayment && !command.data.cancel_open_payment) throw paymentInProgress(state, 'marking it uncollectible');
        return [{ type: 'InvoiceMarkedUncollectible', data: { invoice_id: id, ...payerOf(state) } }];
      }
      case 'IssueCreditNote':
        return issueCreditNote(state, command.data);
      case 'NumberCreditNote':
        return numberCreditNote(state, command.data);
      case 'RecordCreditNoteRefund':
        return recordCreditNoteRefund(state, command.data);
      case 'ResolveCreditNote':
        return resolveCreditNote(state, command.data);
      default:
        return assertNever(command);
    }
  },

  evolve(state, event) {
    if (event.type === 'InvoiceCreated') {
      const data = event.data;
      const total = data.lines.reduce((sum, line) => sum.plus(line.amount), ZERO).toFixed();
      return {
        status: 'draft',
        id: data.invoice_id,
        customerId: data.customer_id,
        subscriptionId: data.subscription_id,
        currency: data.currency,
        taxBehavior: data.tax_behavior,
        autoCharge: data.auto_charge,
        description: data.description,
        dueAt: data.due_at,
        daysUntilDue: data.days_until_due,
        periodStart: data.period_start,
        periodEnd: data.period_end,
        metadata: data.metadata,
        lines: data.lines,
        discounts: data.discounts,
        paymentMethodId: data.payment_method_id ?? null,
        // A subscription invoice issued before it carried its terms is dunned on the default ones.
        dunning: data.dunning !== undefined ? data.dunning : data.subscription_id ? DEFAULT_DUNNING : null,
        retriesExhausted: false,
        number: null,
        total,
        amountPaid: '0',
        prePaymentCredit: '0',
        credited: '0',
        payments: [],
        openPayment: null,
        openPaymentAmount: null,
        openWalletAttempt: null,
        walletId: null,
        walletPaid: '0',
        unappliedPayments: [],
        appliedPayments: [],
        attempts: [],
        pendingCreditNotes: [],
        lineTotals: [],
        creditNoteOutcomes: [],
      };
    }
    if (state.status === 'none') return state;
    switch (event.type) {
      case 'InvoiceDraftUpdated': {
        const { description, due_at, days_until_due, metadata, auto_charge } = event.data;
        return {
          ...state,
          ...(description !== undefined && { description }),
          ...(due_at !== undefined && { dueAt: due_at }),
          ...(days_until_due !== undefined && { daysUntilDue: days_until_due }),
          ...(metadata !== undefined && { metadata }),
          ...(auto_charge !== undefined && { autoCharge: auto_charge }),
        };
      }
      case 'InvoiceLineAdded':
        return { ...state, lines: [...state.lines, event.data.line] };
      case 'InvoiceLineRemoved':
        return { ...state, lines: state.lines.filter((line) => line.line_id !== event.data.line_id) };
      case 'InvoiceTaxComputed':
        return state;
      case 'InvoiceFinalized': {
        const { number, due_at, totals, wallet_id, payment_method_id } = event.data;
        return {
          ...state,
          status: 'open',
          number,
          dueAt: due_at,
          walletId: wallet_id ?? state.walletId,
          paymentMethodId: payment_method_id ?? state.paymentMethodId,
          total: totals.total,
          lineTotals: totals.lines.map((line) => ({ line_id: line.line_id, total: line.total, tax: line.tax_amount, credited: '0' })),
        };
      }
      case 'InvoicePaymentApplied': {
        const fromWallet = state.openWalletAttempt !== null && state.openPayment === event.data.payment_id;
        return {
          ...withoutAttempt(state, event.data.payment_id),
          status: 'partially_paid',
          amountPaid: new Big(state.amountPaid).plus(event.data.amount).toFixed(),
          walletPaid: fromWallet ? new Big(state.walletPaid).plus(event.data.amount).toFixed() : state.walletPaid,
          payments: [...state.payments, event.data.payment_id],
          appliedPayments: [...state.appliedPayments, { paymentId: event.data.payment_id, amount: event.data.amount }],
        };
      }
      case 'InvoicePaymentStarted': {
        const { payment_id, amount, payment_method_id, reason, source } = event.data;
        const attempt = { ...state, openPayment: payment_id, openPaymentAmount: amount, attempts: [...state.attempts, payment_id] };
        if (source === 'wallet') return { ...attempt, openWalletAttempt: { atFinalization: payment_id === walletSettlementPaymentId(state.id, FINALIZATION) }, walletId: payment_method_id };
        // A method named for one payment by hand is not the one to charge next.
        return { ...attempt, openWalletAttempt: null, paymentMethodId: reason === 'manual' ? state.paymentMethodId : payment_method_id };
      }
      case 'InvoiceRetriesExhausted':
        return { ...state, retriesExhausted: true };
      case 'InvoicePaymentFailed':
      case 'InvoicePaymentCanceled':
        return withoutAttempt(state, event.data.payment_id);
      case 'InvoicePaymentNotApplied':
        return { ...withoutAttempt(state, event.data.payment_id), unappliedPayments: [...state.unappliedPayments, event.data.payment_id] };
      case 'InvoicePaid':
        return { ...state, status: 'paid' };
      case 'InvoiceVoided':
        return { ...state, status: 'void' };
      case 'InvoiceMarkedUncollectible':
        return { ...state, status: 'uncollectible' };
      case 'CreditNoteDecided':
        return { ...credited(state, event.data), pendingCreditNotes: [...state.pendingCreditNotes, event.data] };
      case 'CreditNoteIssued': {
        // Decided first (what it credited was taken off then), or issued at once before credit notes were decided.
        const pending = state.pendingCreditNotes.some((note) => note.credit_note_id === event.data.credit_note_id);
        if (!pending) return credited(state, event.data);
        return { ...state, pendingCreditNotes: state.pendingCreditNotes.filter((note) => note.credit_note_id !== event.data.credit_note_id) };
      }
      case 'CreditNoteRefundUpdated':
        return withCreditNoteOutcome(state, event.data.credit_note_id, (outcome) => ({ ...outcome, refund_status: event.data.refund_status }));
      case 'CreditNoteRefundFailed':
        return withCreditNoteOutcome(state, event.data.credit_note_id, () => ({ kind: 'pending_manual', refund_status: 'failed' }));
      case 'CreditNoteResolved':
        return withCreditNoteOutcome(state, event.data.credit_note_id, () => resolvedOutcome(event.data.resolution));
      default:
        return assertNever(event);
    }
  },
};

/** The draft a creation states, its rules checked. */
function created(command: CreateInvoice['data']): InvoiceEvent {
  const { now, ...data } = command;
  checkCurrency(data.currency);
  checkMetadata(data.metadata);
  if (data.due_at !== null && data.due_at <= now) throw invalid('invoice.due_at_in_past', 'due_at', 'due_at lies in the future');
  if (data.lines.length > MAX_INVOICE_LINES) throw invalid('invoice.too_many_lines', 'lines', `an invoice has at most ${MAX_INVOICE_LINES} lines`);
  checkPricedLines(data.lines, data.currency);
  return { type: 'InvoiceCreated', data };
}

/**
 * Draft → open with its number: paid at once when nothing is to pay, else, when it is charged
 * automatically and a method is known, the automatic charge's attempt starts in the same append.
 */
function finalize(state: InvoiceFacts, data: FinalizeInvoice['data']): InvoiceEvent[] {
  const { number, now, line_ids, totals } = data;
  if (state.status !== 'draft') {
    if (state.number === number) return [];
    throw notDraft(state, 'finalising');
  }
  if (number.length === 0) throw new Error('An invoice is finalised with a number');
  checkTotals(state, line_ids, totals);
  if (state.dueAt !== null && state.dueAt < now) throw DomainError.conflict('invoice.due_at_passed', `The due date ${state.dueAt} of invoice ${state.id} has passed; change it first`);
  const days = state.daysUntilDue ?? (state.autoCharge ? DEFAULT_DAYS_UNTIL_DUE.auto_charge : DEFAULT_DAYS_UNTIL_DUE.send_invoice);
  const dueAt = state.dueAt ?? new Date(Date.parse(now) + days * 86_400_000).toISOString();
  const method = state.paymentMethodId ?? data.payment_method_id ?? null;
  const wallet = data.wallet ? { wallet_id: data.wallet.id, ...(method !== null && method !== state.paymentMethodId && { payment_method_id: method }) } : {};
  const awaits_payment = new Big(totals.total).gt(0) && !data.wallet?.funded && !(state.autoCharge && method);
  const finalized: InvoiceEvent = { type: 'InvoiceFinalized', data: { invoice_id: state.id, ...payerOf(state), number, issued_at: now, due_at: dueAt, totals, ...wallet, awaits_payment } };
  const open = invoiceDecider.evolve(state, finalized) as InvoiceFacts;
  // Nothing to pay (a zero total, or credits beyond the charges): paid on finalisation; a negative total's credit goes to the customer's wallet.
  if (new Big(totals.total).lte(0)) return [finalized, paid(open)];
  // The customer's wallet settles it first (Stripe applies the customer balance at finalisation); the method is charged for the rest after.
  if (data.wallet?.funded) {
    const settle: StartInvoicePayment = {
      type: 'StartInvoicePayment',
      data: { invoice_id: state.id, payment_id: walletSettlementPaymentId(state.id, FINALIZATION), payment_method_id: data.wallet.id, reason: 'automatic', source: 'wallet' },
    };
    return [finalized, ...invoiceDecider.decide(settle, open)];
  }
  if (!state.autoCharge || !method) return [finalized];
  const charge: StartInvoicePayment = { type: 'StartInvoicePayment', data: { invoice_id: state.id, payment_id: automaticPaymentId(state.id), payment_method_id: method, reason: 'automatic' } };
  return [finalized, ...invoiceDecider.decide(charge, open)];
}

/** The attempt of `paymentId` ended: no attempt is open any more (if it was that one). */
const withoutAttempt = (state: InvoiceFacts, paymentId: string): InvoiceFacts =>
  state.openPayment === paymentId ? { ...state, openPayment: null, openPaymentAmount: null, openWalletAttempt: null } : state;

/**
 * After the finalisation's settlement from the wallet ended (`ended`: its payment applied, or its
 * attempt closed because the wallet was empty), an automatically charged invoice with something
 * left to pay is charged with its method, as it would have been at finalisation.
 */
function chargeAfterWallet(state: InvoiceFacts, ended: InvoiceEvent): readonly InvoiceEvent[] {
  if (!state.openWalletAttempt?.atFinalization) return [];
  const after = invoiceDecider.evolve(state, ended) as InvoiceFacts;
  if (!after.autoCharge || !after.paymentMethodId || !isPayable(after)) return [];
  const charge: StartInvoicePayment = { type: 'StartInvoicePayment', data: { invoice_id: state.id, payment_id: automaticPaymentId(state.id), payment_method_id: after.paymentMethodId, reason: 'automatic' } };
  return invoiceDecider.decide(charge, after);
}

/** Whose money settles the invoice: its events that open and close it for the settlement from the customer's wallet name it. */
const payerOf = (state: InvoiceFacts): Required<InvoicePayer> => ({ customer_id: state.customerId, currency: state.currency });

/**
 * Why a succeeded payment cannot be applied, if it cannot: the invoice takes only the payment of
 * its open attempt, while it is open or partly paid, and no more than is due.
 */
function notApplicableBecause(state: InvoiceFacts, paymentId: string, amount: Big): PaymentNotAppliedReason | null {
  if (state.status !== 'open' && state.status !== 'partially_paid') return `invoice_${state.status}`;
  if (state.openPayment !== paymentId) return 'attempt_closed';
  return amount.gt(amountDue(state)) ? 'exceeds_amount_due' : null;
}

const lineNotFound = (lineId: string) => DomainError.notFound('invoice.line_not_found', `The invoice has no line ${lineId}`);

/** The totals must be those of the draft's lines as they are, and add up: total = subtotal − discount + tax. */
function checkTotals(state: InvoiceFacts, lineIds: readonly string[], totals: InvoiceTotalsData): void {
  const current = state.lines.map((line) => line.line_id);
  const sameLines = current.length === lineIds.length && current.every((lineId, i) => lineIds[i] === lineId) && totals.lines.every((line, i) => line.line_id === current[i]);
  if (!sameLines || totals.lines.length !== current.length) {
    throw DomainError.conflict('request.concurrent_update', `The lines of invoice ${state.id} changed while its tax was computed; retry`);
  }
  const expected = new Big(totals.subtotal).minus(totals.discount).plus(totals.tax);
  if (!expected.eq(totals.total)) throw new Error(`Invoice ${state.id}: total ${totals.total} is not subtotal − discount + tax (${expected.toFixed()})`);
}

function positiveAmount(raw: string, currency: string, field: string, code: string): Big {
  let amount: Big;
  try {
    amount = parseAmount(raw);
  } catch {
    throw invalid(code, field, 'a decimal string such as "12.50"');
  }
  if (amount.lte(0) || !isWholeMinorUnits(amount, currency)) throw invalid(code, field, `an amount above 0 in whole minor units of ${currency}`);
  return amount;
}

/**
 * A credit note takes either `amount` (spread over the lines) or `lines`, never more than is left
 * to credit: before payment (`none`) of what is due, which it lowers; after (`refund`,
 * `credit_balance`) of what was paid and not yet credited back.
 */
function issueCreditNote(state: InvoiceFacts, data: IssueCreditNote['data']): InvoiceEvent[] {
  if (state.creditNoteOutcomes.some((note) => note.creditNoteId === data.credit_note_id)) return [];
  if (state.status !== 'open' && state.status !== 'partially_paid' && state.status !== 'paid') throw refusedIn(state, 'a credit note');
  if ((data.amount === null) === (data.lines === null)) {
    const message = 'a credit note takes either `amount` or `lines`';
    throw DomainError.invalid('credit_note.invalid', 'Give the credit note an amount or lines, not both', [{ field: 'amount', code: 'credit_note.amount_or_lines', message }]);
  }
  const kind = data.outcome ?? (state.status === 'paid' ? 'credit_balance' : 'none');
  if (data.payment_id !== undefined && data.refund_id === undefined && kind !== 'refund') throw invalid('credit_note.invalid', 'payment_id', 'payment_id goes with outcome refund');
  const prePayment = kind === 'none';
  if (prePayment && state.status === 'paid') {
    throw DomainError.conflict('credit_note.outcome_required', `Invoice ${state.id} is paid; a credit note of it refunds (\`refund\`) or credits the customer's wallet (\`credit_balance\`)`);
  }
  const lines = data.lines !== null ? creditedLines(state, data.lines) : null;
  const amount = lines ? lines.reduce((sum, line) => sum.plus(line.amount), ZERO) : positiveAmount(data.amount!, state.currency, 'amount', 'credit_note.invalid');
  const left = prePayment ? amountDue(state) : creditableAfterPayment(state);
  if (amount.gt(left)) {
    const what = prePayment ? 'what is left to pay' : 'what was paid and not yet credited back';
    throw DomainError.conflict('credit_note.exceeds_invoice', `Invoice ${state.id} has ${left.toFixed()} ${state.currency} left to credit (${what})`);
  }
  const refunded = kind === 'refund' && data.refund_id === undefined ? refundedPayment(state, data.payment_id, amount, data.credit_note_id) : undefined;
  // The payment under way must still find what it charges due when it succeeds.
  if (prePayment && state.openPaymentAmount !== null && left.minus(amount).lt(state.openPaymentAmount)) {
    throw paymentInProgress(state, `a credit note leaving less than its ${formatAmount(new Big(state.openPaymentAmount), state.currency)} ${state.currency} due`);
  }
  const decided: CreditNoteDecided = {
    type: 'CreditNoteDecided',
    data: {
      invoice_id: state.id,
      credit_note_id: data.credit_note_id,
      amount: amount.toFixed(),
      reason: data.reason,
      memo: data.memo,
      lines: lines ?? spreadOverLines(amount, state.lineTotals, state.currency).map((part) => creditedLine(part.line, part.amount, state.currency)),
      outcome: { kind, refund_status: kind === 'refund' ? 'pending' : null },
      refund_id: refunded?.refund_id ?? data.refund_id ?? null,
      payment_id: refunded?.payment_id ?? data.payment_id ?? null,
      pre_payment: prePayment,
      created_at: data.now,
    },
  };
  return [decided];
}

/**
 * The payment a credit note asked on the invoice refunds (a refund's own note names both): the one
 * named, else the last applied, with that much of it not yet returned by credit notes. Its refund
 * is made by the payments context from the note (its id: the note's, as `rfd_`).
 */
function refundedPayment(state: InvoiceFacts, named: string | undefined, amount: Big, creditNoteId: string): { payment_id: string; refund_id: string } {
  const paymentId = named ?? state.appliedPayments[state.appliedPayments.length - 1]?.paymentId;
  const applied = state.appliedPayments.filter((payment) => payment.paymentId === paymentId);
  if (!paymentId || applied.length === 0) {
    const message = named ? `payment ${named} was not applied to invoice ${state.id}` : `invoice ${state.id} has no payment to refund`;
    throw DomainError.conflict('credit_note.no_payment_to_refund', message.charAt(0).toUpperCase() + message.slice(1));
  }
  const returned = state.creditNoteOutcomes.filter((note) => note.paymentId === paymentId).reduce((sum, note) => sum.plus(note.amount), ZERO);
  const left = applied.reduce((sum, payment) => sum.plus(payment.amount), ZERO).minus(returned);
  if (amount.gt(left)) throw DomainError.conflict('credit_note.exceeds_invoice', `Payment ${paymentId} has ${left.toFixed()} ${state.currency} left to refund`);
  return { payment_id: paymentId, refund_id: refundIdOfCreditNote(creditNoteId) };
}

/** The lines a credit note names, each once, each an invoice line with that much left to credit. */
function creditedLines(state: InvoiceFacts, named: { line_id: string; amount: string }[]) {
  if (named.length === 0) throw invalid('credit_note.invalid', 'lines', 'at least one line');
  const errors: FieldError[] = [];
  const seen = new Set<string>();
  named.forEach((line, i) => {
    if (seen.has(line.line_id)) errors.push({ field: `lines[${i}].line_id`, code: 'credit_note.duplicate_line', message: 'each line once' });
    seen.add(line.line_id);
  });
  if (errors.length > 0) throw DomainError.invalid('credit_note.invalid', 'A line is credited twice', errors);
  return named.map((line, i) => {
    const invoiceLine = state.lineTotals.find((l) => l.line_id === line.line_id);
    if (!invoiceLine) throw lineNotFound(line.line_id);
    const lineAmount = positiveAmount(line.amount, state.currency, `lines[${i}].amount`, 'credit_note.invalid');
    const left = leftToCredit(invoiceLine);
    if (lineAmount.gt(left)) throw DomainError.conflict('credit_note.exceeds_invoice', `Line ${line.line_id} has ${left.toFixed()} ${state.currency} left to credit`);
    return creditedLine(invoiceLine, lineAmount, state.currency);
  });
}

const creditNoteNotFound = (state: InvoiceFacts, creditNoteId: string) => DomainError.notFound('credit_note.not_found', `Invoice ${state.id} has no credit note ${creditNoteId}`);

function creditNoteOf(state: InvoiceState, creditNoteId: string) {
  if (state.status === 'none') throw notFound(creditNoteId);
  const note = state.creditNoteOutcomes.find((n) => n.creditNoteId === creditNoteId);
  if (!note) throw creditNoteNotFound(state, creditNoteId);
  return { invoice: state, note };
}

/** What a credit note takes off: its amount (of what is due, before payment), its lines' shares, and its outcome kept. */
function credited(state: InvoiceFacts, data: CreditNoteDecided['data']): InvoiceFacts {
  const { amount, lines, pre_payment, credit_note_id, refund_id, payment_id, outcome } = data;
  return {
    ...state,
    creditNoteOutcomes: [...state.creditNoteOutcomes, { creditNoteId: credit_note_id, refundId: refund_id, paymentId: payment_id, amount, ...outcome }],
    credited: new Big(state.credited).plus(amount).toFixed(),
    prePaymentCredit: pre_payment ? new Big(state.prePaymentCredit).plus(amount).toFixed() : state.prePaymentCredit,
    lineTotals: state.lineTotals.map((line) => {
      const credit = lines.find((l) => l.line_id === line.line_id);
      return credit ? { ...line, credited: new Big(line.credited).plus(credit.amount).toFixed() } : line;
    }),
  };
}

/**
 * A decided credit note issued with the number reserved for it, its outcome as it is now (its
 * refund may have been attempted meanwhile); the invoice is paid when the note left nothing due.
 * Numbered again, it changes nothing.
 */
function numberCreditNote(state: InvoiceState, data: NumberCreditNote['data']): InvoiceEvent[] {
  const { invoice, note } = creditNoteOf(state, data.credit_note_id);
  const pending = invoice.pendingCreditNotes.find((decided) => decided.credit_note_id === note.creditNoteId);
  if (!pending) return [];
  const issued: CreditNoteIssued = { type: 'CreditNoteIssued', data: { ...pending, number: data.number, outcome: { kind: note.kind, refund_status: note.refund_status } } };
  const settled = pending.pre_payment && (invoice.status === 'open' || invoice.status === 'partially_paid') && amountDue(invoice).eq(0);
  return settled ? [issued, paid(invoice)] : [issued];
}

/** A refund's attempt reaches its credit note: recorded when it changes the refund's status, `pending_manual` once the last failed. */
function recordCreditNoteRefund(state: InvoiceState, data: RecordCreditNoteRefund['data']): InvoiceEvent[] {
  const { invoice, note } = creditNoteOf(state, data.credit_note_id);
  if (note.kind !== 'refund') return [];
  const ref = { invoice_id: invoice.id, credit_note_id: note.creditNoteId };
  const updated: InvoiceEvent[] = note.refund_status === data.refund_status ? [] : [{ type: 'CreditNoteRefundUpdated', data: { ...ref, refund_status: data.refund_status } }];
  return data.refund_status === 'failed' && data.exhausted ? [...updated, { type: 'CreditNoteRefundFailed', data: { ...ref, refund_id: note.refundId } }] : updated;
}

function resolveCreditNote(state: InvoiceState, data: ResolveCreditNote['data']): InvoiceEvent[] {
  const { invoice, note } = creditNoteOf(state, data.credit_note_id);
  if (note.kind !== 'pending_manual') {
    if (note.kind === resolvedOutcome(data.resolution).kind && note.refund_status === resolvedOutcome(data.resolution).refund_status) return [];
    throw DomainError.conflict('credit_note.not_pending_manual', `Credit note ${note.creditNoteId} is ${note.kind}; only a pending_manual one is resolved by hand`);
  }
  return [{ type: 'CreditNoteResolved', data: { invoice_id: invoice.id, credit_note_id: note.creditNoteId, resolution: data.resolution, resolved_at: data.now } }];
}

/** Refunded out of band: a refund that succeeded; credited to the wallet: a credit to the customer's balance. */
export function resolvedOutcome(resolution: CreditNoteResolution): CreditNoteOutcome {
  return resolution === 'refunded_out_of_band' ? { kind: 'refund', refund_status: 'succeeded' } : { kind: 'credit_balance', refund_status: null };
}

function withCreditNoteOutcome(state: InvoiceFacts, creditNoteId: string, change: (outcome: CreditNoteOutcome) => CreditNoteOutcome): InvoiceFacts {
  return {
    ...state,
    creditNoteOutcomes: state.creditNoteOutcomes.map((note) => (note.creditNoteId === creditNoteId ? { ...note, ...change({ kind: note.kind, refund_status: note.refund_status }) } : note)),
  };
}

/** Paid: named with its subscription, whose status follows it (a past-due subscription is active again). */
const paid = (state: InvoiceFacts): InvoiceEvent => ({ type: 'InvoicePaid', data: { invoice_id: state.id, ...payerOf(state), subscription_id: state.subscriptionId } });
