import { subscriptionUpcasters } from './subscription.upcasters';
import { BASIS_FROM_HISTORY } from './subscription.events';

const upcast = (eventType: string, data: object): unknown => {
  const upcaster = subscriptionUpcasters.find((candidate) => candidate.eventType === eventType && candidate.fromVersion === 1);
  if (!upcaster) throw new Error(`no upcaster of ${eventType}`);
  return upcaster.upcast(data, { tenant_id: 'ten_1', environment: 'sandbox', occurred_at: '2026-02-28T10:00:00.000Z', schema_version: 1 });
};

describe('subscription events stored at version 1', () => {
  it('read a renewal as one whose invoice’s basis is in the subscription’s history', () => {
    const renewed = { subscription_id: 'sub_1', period_start: '2026-02-28T10:00:00.000Z', period_end: '2026-03-31T10:00:00.000Z', terms: { plan_code: 'pro', quantities: {}, coupons: [], prorations: [] }, commitment_end: null };
    expect(upcast('SubscriptionRenewed', renewed)).toEqual({ ...renewed, billing: BASIS_FROM_HISTORY });
  });

  it('read the events that could call for no invoice without a basis', () => {
    const changed = { subscription_id: 'sub_1', plan_code: 'max', previous_plan_code: 'pro', changed_at: '2026-02-14T10:00:00.000Z', prorations: [], invoice_now: false };
    expect(upcast('SubscriptionPlanChanged', changed)).toEqual(changed);
    expect(upcast('SubscriptionPlanChanged', { ...changed, invoice_now: true })).toEqual({ ...changed, invoice_now: true, billing: BASIS_FROM_HISTORY });
    const canceled = { subscription_id: 'sub_1', canceled_at: '2026-02-14T10:00:00.000Z', reason: 'customer_deleted', prorations: [], final_invoice: false };
    expect(upcast('SubscriptionCanceled', canceled)).toEqual(canceled);
  });

  it('widen each event that calls for an invoice, once', () =>
    expect(subscriptionUpcasters.map((upcaster) => [upcaster.eventType, upcaster.fromVersion]).sort()).toEqual(
      ['SubscriptionActivated', 'SubscriptionAwaitingPayment', 'SubscriptionCanceled', 'SubscriptionEnded', 'SubscriptionPlanChanged', 'SubscriptionRenewed'].map((type) => [type, 1]),
    ));
});
