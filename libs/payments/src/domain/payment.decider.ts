import Big from 'big.js';
import { assertNever, DomainError, formatAmount, isWholeMinorUnits, parseAmount, type Command, type Decider } from '@tally/kernel';
import type { DunningTerms } from './dunning';
import type { PaymentCreated, PaymentError, PaymentEvent, PaymentNextAction, PaymentRefunded, PaymentRefundReserved, PaymentStatus } from './payment.events';
import { refundWindowEndsAt } from './refund-window';

export type PaymentState =
  | { status: 'none' }
  | {
      status: PaymentStatus;
      id: string;
      invoiceId: string;
      customerId: string;
      subscriptionId: string | null;
      dunning: DunningTerms | null;
      provider: string;
      providerRef: string;
      providerId: string | null;
      capturedAt: string | null;
      amount: string;
      currency: string;
      settled: boolean;
      dispute: 'open' | 'won' | 'lost' | null;
      refunds: readonly string[];
      /** What the refunds reserved so far add up to. */
      refunded: string;
    };

/** What the provider answered, as the payment records it (times and the action URL filled in by the caller). */
export type ProviderAnswer =
  | { status: 'succeeded'; provider_id: string; captured_at: string; dispute?: { reason: string } }
  | { status: 'processing'; provider_id: string }
  | { status: 'requires_action'; provider_id: string; next_action: PaymentNextAction }
  | { status: 'failed'; provider_id: string | null; last_error: PaymentError }
  /** Nothing was taken and nothing is owed (a settlement from a wallet found it empty): the attempt ends without a failure. */
  | { status: 'canceled' };

/** Created with the provider's answer to its charge (asked first, under a key derived from the payment's id): one append. */
export type CreatePayment = Command<'CreatePayment', PaymentCreated['data'] & { answer: ProviderAnswer }>;
export type RecordProviderAnswer = Command<'RecordProviderAnswer', { payment_id: string; answer: ProviderAnswer }>;
export type CancelPayment = Command<'CancelPayment', { payment_id: string }>;
/** `at`: the time on the payment's clock. */
export type OpenDispute = Command<'OpenDispute', { payment_id: string; reason: string; at: string }>;
export type DecideDispute = Command<'DecideDispute', { payment_id: string; outcome: 'won' | 'lost'; at: string }>;
/** The provider refunded the whole payment (the caller asked it first). */
export type RecordRefund = Command<'RecordRefund', Omit<PaymentRefunded['data'], 'amount'>>;

/** `amount` null: all that is left to refund. `now`: on the payment's clock, for its refund window. */
export type ReserveRefund = Command<'ReserveRefund', Omit<PaymentRefundReserved['data'], 'amount' | 'refunded' | 'reserved_at'> & { amount: string | null; now: string }>;

export type PaymentCommand = CreatePayment | RecordProviderAnswer | CancelPayment | OpenDispute | DecideDispute | RecordRefund | ReserveRefund;

export const paymentNotFound = (id: string) => DomainError.notFound('payment.not_found', `No payment ${id}`);

/** States in which the provider's answer is still awaited, so the attempt is open. */
export const OPEN_PAYMENT_STATUSES: readonly PaymentStatus[] = ['pending', 'processing', 'requires_action'];

export const paymentDecider: Decider<PaymentState, PaymentCommand, PaymentEvent> = {
  initialState: () => ({ status: 'none' }),

  decide(command, state) {
    switch (command.type) {
      case 'CreatePayment': {
        const { answer, ...data } = command.data;
        if (state.status !== 'none') return answered(state, answer);
        const created: PaymentCreated = { type: 'PaymentCreated', data };
        return [created, ...answered(paymentDecider.evolve(state, created) as Existing, answer)];
      }
      case 'RecordProviderAnswer': {
        if (state.status === 'none') throw paymentNotFound(command.data.payment_id);
        return answered(state, command.data.answer);
      }
      case 'CancelPayment': {
        if (state.status === 'none') throw paymentNotFound(command.data.payment_id);
        if (state.status === 'canceled') return [];
        if (state.status !== 'pending' && state.status !== 'requires_action') {
          throw DomainError.conflict('payment.not_cancelable', `Payment ${state.id} is ${state.status}; only pending payments and those waiting for the customer’s action can be canceled`);
        }
        return [{ type: 'PaymentCanceled', data: { payment_id: state.id } }];
      }
      case 'OpenDispute': {
        if (state.status === 'none') throw paymentNotFound(command.data.payment_id);
        if (state.dispute !== null) throw DomainError.conflict('payment.already_disputed', `Payment ${state.id} was disputed already; a payment is disputed once`);
        if (state.status !== 'succeeded') throw DomainError.conflict('payment.not_disputable', `Payment ${state.id} is ${state.status}; only a succeeded payment can be charged back`);
        return [{ type: 'PaymentChargedBack', data: { payment_id: state.id, amount: state.amount, reason: command.data.reason, opened_at: command.data.at } }];
      }
      case 'DecideDispute': {
        if (state.status === 'none') throw paymentNotFound(command.data.payment_id);
        if (state.dispute === command.data.outcome) return [];
        if (state.dispute !== 'open') throw DomainError.conflict('payment.no_open_dispute', `Payment ${state.id} has no open dispute to decide`);
        const decided = { payment_id: state.id, decided_at: command.data.at };
        return [command.data.outcome === 'won' ? { type: 'PaymentDisputeWon', data: decided } : { type: 'PaymentDisputeLost', data: decided }];
      }
      case 'RecordRefund': {
        if (state.status === 'none') throw paymentNotFound(command.data.payment_id);
        if (state.refunds.includes(command.data.refund_id)) return [];
        if (state.status !== 'succeeded') throw DomainError.conflict('payment.not_refundable', `Payment ${state.id} is ${state.status}; only a succeeded payment can be refunded`);
        return [{ type: 'PaymentRefunded', data: { ...command.data, amount: state.amount } }];
      }
      case 'ReserveRefund':
        if (state.status === 'none') throw paymentNotFound(command.data.payment_id);
        return reserveRefund(state, command.data);
      default:
        return assertNever(command);
    }
  },

  evolve(state, event) {
    if (event.type === 'PaymentCreated') {
      const { payment_id, invoice_id, customer_id, subscription_id, dunning, provider, provider_ref, amount, currency } = event.data;
      return {
        status: 'pending',
        id: payment_id,
        invoiceId: invoice_id,
        customerId: customer_id,
        subscriptionId: subscription_id,
        dunning,
        provider,
        providerRef: provider_ref,
        providerId: null,
        capturedAt: null,
        amount,
        currency,
        settled: false,
        dispute: null,
        refunds: [],
        refunded: '0',
      };
    }
    if (state.status === 'none') return state;
    switch (event.type) {
      case 'PaymentProcessing':
        return { ...state, status: 'processing', providerId: event.data.provider_id };
      case 'PaymentRequiresAction':
        return { ...state, status: 'requires_action', providerId: event.data.provider_id };
      case 'PaymentActionCompleted':
        return { ...state, status: 'processing' };
      case 'PaymentSucceeded':
        return { ...state, status: 'succeeded', providerId: event.data.provider_id, capturedAt: event.data.captured_at };
      case 'PaymentSettled':
        return { ...state, settled: true };
      case 'PaymentFailed':
        return { ...state, status: 'failed', providerId: event.data.provider_id ?? state.providerId };
      case 'PaymentCanceled':
        return { ...state, status: 'canceled' };
      case 'PaymentChargedBack':
        return { ...state, status: 'charged_back', dispute: 'open' };
      case 'PaymentDisputeWon':
        return { ...state, status: 'succeeded', dispute: 'won' };
      case 'PaymentDisputeLost':
        return { ...state, dispute: 'lost' };
      case 'PaymentRefunded':
        return { ...state, status: 'refunded', refunds: [...state.refunds, event.data.refund_id] };
      case 'PaymentRefundReserved': {
        const { refund_id, refunded } = event.data;
        return { ...state, status: new Big(refunded).eq(state.amount) ? 'refunded' : 'partially_refunded', refunds: [...state.refunds, refund_id], refunded };
      }
      default:
        return assertNever(event);
    }
  },
};

type Existing = Exclude<PaymentState, { status: 'none' }>;

/**
 * Sets a refund's amount aside on the payment: only a succeeded (or partly refunded) payment,
 * inside its provider's refund window, and never more than is left of it. The same refund asked
 * again changes nothing.
 */
function reserveRefund(state: Existing, data: ReserveRefund['data']): PaymentEvent[] {
  const { amount: asked, now, ...refund } = data;
  if (state.refunds.includes(refund.refund_id)) return [];
  if (state.status !== 'succeeded' && state.status !== 'partially_refunded') {
    throw DomainError.conflict('refund.payment_not_refundable', `Payment ${state.id} is ${state.status}; only a succeeded or partially refunded payment can be refunded`);
  }
  const windowEnd = state.capturedAt && refundWindowEndsAt(state.provider, state.capturedAt);
  if (windowEnd && now > windowEnd) throw DomainError.unprocessable('refund.window_closed', `Payment ${state.id} could be refunded until ${windowEnd}`);
  const left = new Big(state.amount).minus(state.refunded);
  const amount = asked === null ? left : refundAmount(asked, state.currency);
  if (amount.gt(left)) {
    throw DomainError.conflict('refund.amount_exceeds_refundable', `Payment ${state.id} has ${formatAmount(left, state.currency)} ${state.currency} left to refund`);
  }
  const reserved: PaymentRefundReserved = {
    type: 'PaymentRefundReserved',
    data: { ...refund, amount: formatAmount(amount, state.currency), refunded: new Big(state.refunded).plus(amount).toFixed(), reserved_at: now },
  };
  return [reserved];
}

function refundAmount(raw: string, currency: string): Big {
  let amount: Big | undefined;
  try {
    amount = parseAmount(raw);
  } catch {
    amount = undefined;
  }
  if (!amount || amount.lte(0) || !isWholeMinorUnits(amount, currency)) {
    throw DomainError.invalid('refund.invalid', 'The refund amount is not valid', [{ field: 'amount', code: 'refund.invalid_amount', message: `an amount above 0 in whole minor units of ${currency}` }]);
  }
  return amount;
}

/**
 * The events a provider's answer leads to from where the payment stands. An answer for a payment
 * that already moved past it (a redelivered charge, an action completed twice) changes nothing,
 * but for a success of a payment canceled here meanwhile: the cancel lost the race, the money was
 * taken, and it is recorded (its invoice then applies it or has it returned).
 */
function answered(state: Existing, answer: ProviderAnswer): PaymentEvent[] {
  const payment_id = state.id;
  const waiting = OPEN_PAYMENT_STATUSES.includes(state.status);
  const successAfterCancel = state.status === 'canceled' && answer.status === 'succeeded';
  if ((!waiting && !successAfterCancel) || answer.status === state.status) return [];
  const actionDone: PaymentEvent[] = state.status === 'requires_action' && answer.status !== 'requires_action' ? [{ type: 'PaymentActionCompleted', data: { payment_id } }] : [];
  switch (answer.status) {
    case 'succeeded':
      return [
        ...actionDone,
        { type: 'PaymentSucceeded', data: { payment_id, provider_id: answer.provider_id, captured_at: answer.captured_at } },
        {
          type: 'PaymentSettled',
          data: { payment_id, amount_settled: state.amount, settlement_currency: state.currency, fx_rate: null, settled_at: answer.captured_at },
        },
        ...(answer.dispute
          ? [{ type: 'PaymentChargedBack' as const, data: { payment_id, amount: state.amount, reason: answer.dispute.reason, opened_at: answer.captured_at } }]
          : []),
      ];
    case 'processing':
      return state.status === 'pending' ? [{ type: 'PaymentProcessing', data: { payment_id, provider_id: answer.provider_id } }] : [];
    case 'requires_action':
      return state.status === 'pending' ? [{ type: 'PaymentRequiresAction', data: { payment_id, provider_id: answer.provider_id, next_action: answer.next_action } }] : [];
    case 'canceled':
      return [...actionDone, { type: 'PaymentCanceled', data: { payment_id } }];
    case 'failed':
      return [
        ...actionDone,
        {
          type: 'PaymentFailed',
          data: { payment_id, provider_id: answer.provider_id, last_error: answer.last_error, invoice_id: state.invoiceId, subscription_id: state.subscriptionId, dunning: state.dunning },
        },
      ];
    default:
      return assertNever(answer);
  }
}
