import Big from 'big.js';
import { formatAmount } from '@tally/kernel';
import { defineView, type StampedResource } from '@tally/runtime';
import type { PaymentError, PaymentEvent, PaymentNextAction, PaymentReason, PaymentStatus } from './domain/payment.events';

export interface PaymentResource extends StampedResource {
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
  /** What the payment's refunds (`rfd_…`) set aside, pending ones included. */
  amount_refunded: string;
  metadata: Record<string, string>;
}

/** The payment as the API shows it, folded from its events. */
export const paymentView = defineView<PaymentResource, PaymentEvent, 'PaymentCreated'>({
  object: 'payment',
  created: {
    type: 'PaymentCreated',
    fields: ({ invoice_id, customer_id, subscription_id, payment_method_id, provider, amount, currency, reason, return_url }) => ({
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
      amount_refunded: formatAmount(new Big(0), currency),
      metadata: {},
    }),
  },
  changes: {
    PaymentProcessing: (_payment, { provider_id }) => ({ status: 'processing', provider_id }),
    PaymentRequiresAction: (_payment, { provider_id, next_action }) => ({ status: 'requires_action', provider_id, next_action }),
    PaymentActionCompleted: () => ({ status: 'processing', next_action: null }),
    PaymentSucceeded: (_payment, { provider_id, captured_at }) => ({ status: 'succeeded', provider_id, captured_at, next_action: null }),
    PaymentSettled: (_payment, { amount_settled, settlement_currency, fx_rate, settled_at }) => ({ amount_settled, settlement_currency, fx_rate, settled_at }),
    PaymentFailed: (payment, { provider_id, last_error }) => ({ status: 'failed', provider_id: provider_id ?? payment.provider_id, last_error, next_action: null }),
    PaymentCanceled: () => ({ status: 'canceled', next_action: null }),
    PaymentChargedBack: (_payment, { amount, reason, opened_at }) => ({ status: 'charged_back', dispute: { status: 'open', amount, reason, opened_at, decided_at: null } }),
    PaymentDisputeWon: (payment, { decided_at }) => ({ status: 'succeeded', dispute: payment.dispute && { ...payment.dispute, status: 'won', decided_at } }),
    PaymentDisputeLost: (payment, { decided_at }) => ({ status: 'charged_back', dispute: payment.dispute && { ...payment.dispute, status: 'lost', decided_at } }),
    PaymentRefunded: (payment, { refund_id }) => ({ status: 'refunded', refunds: [...payment.refunds, refund_id] }),
    PaymentRefundReserved: (payment, { refund_id, refunded }) => ({
      status: new Big(refunded).eq(payment.amount) ? 'refunded' : 'partially_refunded',
      refunds: [...payment.refunds, refund_id],
      amount_refunded: formatAmount(new Big(refunded), payment.currency),
    }),
  },
  publicTypes: {
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
    // Announced by the refund itself (`refund.created`), which names its payment.
    PaymentRefundReserved: undefined,
  },
});
