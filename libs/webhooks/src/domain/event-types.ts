/**
 * Every public event type an endpoint may subscribe to: the spec's list, plus the types Tally
 * publishes beyond it (coupons, deletions, tax settings, a payment refunded). Some of the spec's types belong to
 * resources a later release adds (wallets, refunds); an endpoint may already ask for them.
 */
export const PUBLIC_EVENT_TYPES: ReadonlySet<string> = new Set([
  'customer.created',
  'customer.updated',
  'customer.deleted',
  'customer.payment_method_attached',
  'customer.payment_method_detached',
  'customer.tax_id_invalidated',
  'payment_method.verified',
  'payment_method.expiring',
  'payment_method.expired',
  'subscription.created',
  'subscription.activated',
  'subscription.trial_will_end',
  'subscription.updated',
  'subscription.quantity_scheduled',
  'subscription.paused',
  'subscription.resumed',
  'subscription.past_due',
  'subscription.canceled',
  'subscription.commitment_ending',
  'subscription.usage_threshold_crossed',
  'subscription.refund_processed',
  'invoice.created',
  'invoice.updated',
  'invoice.finalized',
  'invoice.paid',
  'invoice.payment_failed',
  'invoice.voided',
  'invoice.marked_uncollectible',
  'invoice.fx_rate_locked',
  'payment.created',
  'payment.requires_action',
  'payment.action_completed',
  'payment.processing',
  'payment.succeeded',
  'payment.failed',
  'payment.canceled',
  'payment.settled',
  'payment.charged_back',
  'payment.dispute_won',
  'payment.dispute_lost',
  'payment.refunded',
  'refund.created',
  'refund.succeeded',
  'refund.failed',
  'credit_note.created',
  'credit_note.refund_failed',
  'commission.reversed',
  'wallet.credited',
  'wallet.debited',
  'wallet.auto_topup_succeeded',
  'wallet.auto_topup_failed',
  'wallet.below_drift_floor',
  'plan.created',
  'plan.updated',
  'plan.archived',
  'plan.deleted',
  'coupon.created',
  'coupon.updated',
  'coupon.deleted',
  'tax.settings.updated',
  'attach.completed',
  'webhook_endpoint.delivery_failed',
]);

/**
 * The spec's family of platform notices (`service.*`). Tally publishes no notice yet, so an
 * endpoint may subscribe to the family, which matches nothing until a notice type exists.
 */
const SERVICE_NOTICES = 'service';

/** The categories of `category.*` patterns: the part of each type before its first dot, and the notices' family. */
const CATEGORIES: ReadonlySet<string> = new Set([...[...PUBLIC_EVENT_TYPES].map((type) => type.slice(0, type.indexOf('.'))), SERVICE_NOTICES]);

/** Whether an endpoint's filter entry is `*`, a `category.*` pattern of a known category, or a known type. */
export function isEventFilter(entry: string): boolean {
  if (entry === '*') return true;
  if (entry.endsWith('.*')) return CATEGORIES.has(entry.slice(0, -2));
  return PUBLIC_EVENT_TYPES.has(entry);
}

/** Whether an event of `type` matches one of the endpoint's filter entries. */
export function matchesEventFilter(filter: readonly string[], type: string): boolean {
  return filter.some((entry) => entry === '*' || entry === type || (entry.endsWith('.*') && type.startsWith(entry.slice(0, -1))));
}
