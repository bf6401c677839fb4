import { assertNever } from '@tally/kernel';
import { publicTypesOf, type ResourceView } from '@tally/runtime';
import type { PaymentError, PaymentEvent, PaymentNextAction, PaymentReason, PaymentStatus } from './domain/payment.events';

export interface PaymentResource {
  [field: string]: unknown;
  id: string;
  object: 'payment';
  invoice_id: string;
  customer_id: string;
  subscription_id: string | null;
  payment_method_id: string;
  provider: string;
  /** The provider's reference, once it answered. */
  provider_id: string | null;
  status: PaymentStatus;
  reason: PaymentReason;
  amount: string;
  currency: string;
  amount_settled: string | null;
  settlement_currency: string | null;
  fx_rate: string | null;
  captured_at: string | null;
  settled_at: string | null;
  next_action: PaymentNextAction | null;
  /** Where the hosted action page sends the customer back to, `payment_id` appended. */
  return_url: string | null;
  last_error: PaymentError | null;
  /** Set once the payment was charged back. */
  dispute: { status: 'open' | 'won' | 'lost'; amount: string; reason: string; opened_at: string; decided_at: string | null } | null;
  refunds: string[];
  metadata: Record<string, string>;
  livemode: boolean;
  created_at: string;
  updated_at: string;
}

const PUBLIC_TYPES: Record<PaymentEvent['type'], string> = {
  PaymentCreated: 'payment.created',
  PaymentProcessing: 'payment.processing',
  PaymentRequiresAction: 'payment.requires_action',
  PaymentActionCompleted: 'payment.action_completed',
  PaymentSucceeded: 'payment.succeeded',
  PaymentSettled: 'payment.settled',
  PaymentFailed: 'payment.failed',
  PaymentCanceled: 'payment.canceled',
  PaymentChargedBack: 'payment.charged_back',
  PaymentDisputeWon: 'payment.dispute_won',
  PaymentDisputeLost: 'payment.dispute_lost',
  PaymentRefunded: 'payment.refunded',
};

/** The payment as the API shows it, folded from its events. */
export const paymentView: ResourceView<PaymentResource, PaymentEvent> = {
  aggregateType: 'payment',
  collection: 'payments',

  apply(payment, event) {
    const at = event.metadata.occurred_at;
    if (event.type === 'PaymentCreated') {
      const { payment_id, invoice_id, customer_id, subscription_id, payment_method_id, provider, amount, currency, reason, return_url } = event.data;
      return {
        id: payment_id,
        object: 'payment',
        invoice_id,
        customer_id,
        subscription_id,
        payment_method_id,
        provider,
        provider_id: null,
        status: 'pending',
        reason,
        amount,
        currency,
        amount_settled: null,
        settlement_currency: null,
        fx_rate: null,
        captured_at: null,
        settled_at: null,
        next_action: null,
        return_url: return_url ?? null,
        last_error: null,
        dispute: null,
        refunds: [],
        metadata: {},
        livemode: event.metadata.environment === 'live',
        created_at: at,
        updated_at: at,
      };
    }
    if (!payment) return undefined;
    switch (event.type) {
      case 'PaymentProcessing':
        return { ...payment, status: 'processing', provider_id: event.data.provider_id, updated_at: at };
      case 'PaymentRequiresAction':
        return { ...payment, status: 'requires_action', provider_id: event.data.provider_id, next_action: event.data.next_action, updated_at: at };
      case 'PaymentActionCompleted':
        return { ...payment, status: 'processing', next_action: null, updated_at: at };
      case 'PaymentSucceeded':
        return { ...payment, status: 'succeeded', provider_id: event.data.provider_id, captured_at: event.data.captured_at, next_action: null, updated_at: at };
      case 'PaymentSettled': {
        const { amount_settled, settlement_currency, fx_rate, settled_at } = event.data;
        return { ...payment, amount_settled, settlement_currency, fx_rate, settled_at, updated_at: at };
      }
      case 'PaymentFailed':
        return { ...payment, status: 'failed', provider_id: event.data.provider_id ?? payment.provider_id, last_error: event.data.last_error, next_action: null, updated_at: at };
      case 'PaymentCanceled':
        return { ...payment, status: 'canceled', next_action: null, updated_at: at };
      case 'PaymentChargedBack': {
        const { amount, reason, opened_at } = event.data;
        return { ...payment, status: 'charged_back', dispute: { status: 'open', amount, reason, opened_at, decided_at: null }, updated_at: at };
      }
      case 'PaymentDisputeWon':
      case 'PaymentDisputeLost': {
        const won = event.type === 'PaymentDisputeWon';
        const dispute = payment.dispute && { ...payment.dispute, status: won ? ('won' as const) : ('lost' as const), decided_at: event.data.decided_at };
        return { ...payment, status: won ? 'succeeded' : 'charged_back', dispute, updated_at: at };
      }
      case 'PaymentRefunded':
        return { ...payment, status: 'refunded', refunds: [...payment.refunds, event.data.refund_id], updated_at: at };
      default:
        return assertNever(event);
    }
  },

  publicTypes: publicTypesOf(PUBLIC_TYPES),
  publicType: (event) => PUBLIC_TYPES[event.type],
};
