import { asEventOf, type HistoryEvent } from '@tally/runtime';
import type { SubscriptionEvent } from './domain/subscription.events';
import { subscriptionView, type SubscriptionResource } from './subscription.view';

const id = 'sub_1';
const metadata = { tenant_id: 'ten_1', environment: 'sandbox' as const, actor: 'test', request_id: null, causation_id: null, correlation_id: null, schema_version: 1 };
let revision = 0;
type Stored = SubscriptionEvent & HistoryEvent;
const stored = (event: SubscriptionEvent, at: string, clockId?: string): Stored =>
  ({ ...event, id: `e${revision}`, stream: `subscription-${id}`, revision: revision++, metadata: { ...metadata, occurred_at: at, ...(clockId && { clock_id: clockId }) } }) as Stored;
const fold = (events: Stored[]) => events.reduce<SubscriptionResource | undefined>((resource, event) => subscriptionView.apply(resource, event), undefined);

const created: SubscriptionEvent = {
  type: 'SubscriptionCreated',
  data: {
    subscription_id: id,
    customer_id: 'cus_1',
    plan_code: 'pro',
    currency: 'EUR',
    cadence: { interval: 'month', count: 1 },
    status: 'trialing',
    trial_end: '2026-02-14T00:00:00.000Z',
    billing_cycle_anchor: '2026-02-14T00:00:00.000Z',
    period_start: '2026-01-31T00:00:00.000Z',
    period_end: '2026-02-14T00:00:00.000Z',
    quantities: { seats: 3 },
    coupons: ['WELCOME'],
    metadata: { team: 'core' },
    default_payment_method_id: null,
    commitment: { periods: 12, renewal: 'auto' },
  },
};
const terms = { plan_code: 'pro', quantities: { seats: 3 }, coupons: ['WELCOME'], prorations: [] };

describe('the subscription view', () => {
  it('shows a new subscription with its period, on its customer’s clock', () => {
    const resource = fold([stored(created, '2026-01-31T00:00:00.000Z', 'clock_1')]);
    expect(resource).toEqual({
      id,
      object: 'subscription',
      customer_id: 'cus_1',
      plan_code: 'pro',
      status: 'trialing',
      currency: 'EUR',
      default_payment_method_id: null,
      trial_end: '2026-02-14T00:00:00.000Z',
      trial_days: 14,
      billing_cycle_anchor: '2026-02-14T00:00:00.000Z',
      current_period_start: '2026-01-31T00:00:00.000Z',
      current_period_end: '2026-02-14T00:00:00.000Z',
      quantities: { seats: 3 },
      coupons: ['WELCOME'],
      metadata: { team: 'core' },
      paused_until: null,
      pause_behavior: null,
      cancel_at: null,
      canceled_at: null,
      cancellation_reason: null,
      ended_at: null,
      commitment: { periods: 12, renewal: 'auto' },
      commitment_end_at: null,
      pending_update: null,
      pending_prorations: [],
      test_clock: 'clock_1',
      latest_refund: null,
      livemode: false,
      created_at: '2026-01-31T00:00:00.000Z',
      updated_at: '2026-01-31T00:00:00.000Z',
    });
    expect(Object.getPrototypeOf(resource!.metadata)).toBeNull();
    expect(Object.getPrototypeOf(resource!.quantities)).toBeNull();
  });

  it('follows activation, pause, resume and a cancellation at period end', () => {
    const resource = fold([
      stored(created, '2026-01-31T00:00:00.000Z'),
      stored({ type: 'SubscriptionActivated', data: { subscription_id: id, period_start: '2026-02-14T00:00:00.000Z', period_end: '2026-03-14T00:00:00.000Z', terms, commitment_end: '2027-02-14T00:00:00.000Z' } }, '2026-02-14T00:00:00.000Z'),
      stored({ type: 'SubscriptionPaused', data: { subscription_id: id, paused_at: '2026-02-20T00:00:00.000Z', until: '2026-03-01T00:00:00.000Z', behavior: 'void_invoices' } }, '2026-02-20T00:00:00.000Z'),
      stored({ type: 'SubscriptionResumed', data: { subscription_id: id, resumed_at: '2026-03-01T00:00:00.000Z', automatic: true } }, '2026-03-01T00:00:00.000Z'),
      stored({ type: 'SubscriptionCancellationScheduled', data: { subscription_id: id, cancel_at: '2026-03-14T00:00:00.000Z', reason: 'moving on' } }, '2026-03-02T00:00:00.000Z'),
      stored({ type: 'SubscriptionCanceled', data: { subscription_id: id, canceled_at: '2026-03-14T00:00:00.000Z', reason: 'moving on', prorations: [] } }, '2026-03-14T00:00:00.000Z'),
    ]);
    expect(resource).toMatchObject({
      status: 'canceled',
      current_period_start: '2026-02-14T00:00:00.000Z',
      current_period_end: '2026-03-14T00:00:00.000Z',
      paused_until: null,
      pause_behavior: null,
      cancel_at: '2026-03-14T00:00:00.000Z',
      canceled_at: '2026-03-14T00:00:00.000Z',
      cancellation_reason: 'moving on',
      commitment_end_at: '2027-02-14T00:00:00.000Z',
      updated_at: '2026-03-14T00:00:00.000Z',
    });
  });

  it('shows changes scheduled for the next period, and prorations waiting for the next invoice', () => {
    const prorations = [{ code: 'seats', description: 'Remaining time on seats', amount: '5.00', period_start: '2026-02-20T00:00:00.000Z', period_end: '2026-03-14T00:00:00.000Z', price_version: 1, tax_code: 'standard' }];
    const resource = fold([
      stored(created, '2026-01-31T00:00:00.000Z'),
      stored({ type: 'SubscriptionActivated', data: { subscription_id: id, period_start: '2026-02-14T00:00:00.000Z', period_end: '2026-03-14T00:00:00.000Z', terms, commitment_end: null } }, '2026-02-14T00:00:00.000Z'),
      stored({ type: 'SubscriptionQuantityChanged', data: { subscription_id: id, meter: 'seats', quantity: 4, previous_quantity: 3, changed_at: '2026-02-20T00:00:00.000Z', prorations } }, '2026-02-20T00:00:00.000Z'),
      stored({ type: 'SubscriptionPlanChangeScheduled', data: { subscription_id: id, plan_code: 'max', effective_at: '2026-03-14T00:00:00.000Z' } }, '2026-02-21T00:00:00.000Z'),
      stored({ type: 'SubscriptionQuantityScheduled', data: { subscription_id: id, meter: 'seats', quantity: 9, effective_at: '2026-03-14T00:00:00.000Z' } }, '2026-02-22T00:00:00.000Z'),
    ]);
    expect(resource).toMatchObject({ quantities: { seats: 4 }, pending_prorations: prorations, pending_update: { plan_code: 'max', quantities: { seats: 9 }, effective_at: '2026-03-14T00:00:00.000Z' } });
    expect(Object.getPrototypeOf(resource!.pending_update!.quantities)).toBeNull();
  });

  it('drops from the pending update what a change made now replaces', () => {
    const activated = stored({ type: 'SubscriptionActivated', data: { subscription_id: id, period_start: '2026-02-14T00:00:00.000Z', period_end: '2026-03-14T00:00:00.000Z', terms, commitment_end: null } }, '2026-02-14T00:00:00.000Z');
    const planScheduled = stored({ type: 'SubscriptionPlanChangeScheduled', data: { subscription_id: id, plan_code: 'max', effective_at: '2026-03-14T00:00:00.000Z' } }, '2026-02-21T00:00:00.000Z');
    const seatsScheduled = stored({ type: 'SubscriptionQuantityScheduled', data: { subscription_id: id, meter: 'seats', quantity: 9, effective_at: '2026-03-14T00:00:00.000Z' } }, '2026-02-22T00:00:00.000Z');
    const planChanged = stored({ type: 'SubscriptionPlanChanged', data: { subscription_id: id, plan_code: 'mini', previous_plan_code: 'pro', changed_at: '2026-02-23T00:00:00.000Z', prorations: [], invoice_now: false } }, '2026-02-23T00:00:00.000Z');
    const seatsChanged = stored({ type: 'SubscriptionQuantityChanged', data: { subscription_id: id, meter: 'seats', quantity: 4, previous_quantity: 3, changed_at: '2026-02-24T00:00:00.000Z', prorations: [] } }, '2026-02-24T00:00:00.000Z');
    const base = [stored(created, '2026-01-31T00:00:00.000Z'), activated, planScheduled, seatsScheduled];
    expect(fold([...base, planChanged])).toMatchObject({ plan_code: 'mini', pending_update: { plan_code: null, quantities: { seats: 9 } } });
    expect(fold([...base, planChanged, seatsChanged])).toMatchObject({ plan_code: 'mini', quantities: { seats: 4 }, pending_update: null });
  });

  it('shows the last credit note that adjusted the recognition of one of its invoices, canceled or not, as `subscription.refund_processed`', () => {
    const refund = (credit_note_id: string, refund_id: string | null) => ({
      invoice_id: 'in_1', credit_note_id, refund_id, amount: '10.00', currency: 'EUR', revenue_reduced: '10.00', recognized_reversed: '4.00', deferred_reduced: '6.00', processed_at: '2026-03-20T00:00:00.000Z',
    });
    const processed = (credit_note_id: string, refund_id: string | null): SubscriptionEvent => ({ type: 'SubscriptionRefundProcessed', data: { subscription_id: id, ...refund(credit_note_id, refund_id) } });
    const canceled: SubscriptionEvent = { type: 'SubscriptionCanceled', data: { subscription_id: id, canceled_at: '2026-03-14T00:00:00.000Z', reason: null, prorations: [] } };
    expect(fold([stored(created, '2026-01-31T00:00:00.000Z')])?.latest_refund).toBeNull();
    const resource = fold([
      stored(created, '2026-01-31T00:00:00.000Z'),
      stored(processed('cn_1', null), '2026-02-20T00:00:00.000Z'),
      stored(canceled, '2026-03-14T00:00:00.000Z'),
      stored(processed('cn_2', 'rfd_1'), '2026-03-20T00:00:00.000Z'),
    ]);
    expect(resource).toMatchObject({ status: 'canceled', latest_refund: refund('cn_2', 'rfd_1'), updated_at: '2026-03-20T00:00:00.000Z' });
    expect(subscriptionView.publicType(asEventOf<SubscriptionEvent>({ ...processed('cn_2', 'rfd_1') } as HistoryEvent))).toBe('subscription.refund_processed');
  });

  it('publishes the spec’s event types, and keeps renewals internal', () => {
    const types = (['SubscriptionCreated', 'SubscriptionActivated', 'SubscriptionRecovered', 'SubscriptionRenewed', 'SubscriptionPaused', 'SubscriptionResumed', 'SubscriptionCancellationScheduled', 'SubscriptionCanceled', 'SubscriptionPastDue'] as const).map((type) =>
      subscriptionView.publicType(asEventOf<SubscriptionEvent>({ type, data: {} } as HistoryEvent)),
    );
    expect(types).toEqual(['subscription.created', 'subscription.activated', 'subscription.activated', undefined, 'subscription.paused', 'subscription.resumed', 'subscription.updated', 'subscription.canceled', 'subscription.past_due']);
  });

  it('announces the activation of a subscription created active when its first invoice is paid, not at its creation', () => {
    const activation = { subscription_id: id, period_start: '2026-01-31T00:00:00.000Z', period_end: '2026-02-28T00:00:00.000Z', terms, commitment_end: null };
    const atCreation = stored({ type: 'SubscriptionActivated', data: { ...activation, first_payment_pending: true } }, '2026-01-31T00:00:00.000Z');
    const firstPaid = stored({ type: 'SubscriptionFirstInvoicePaid', data: { subscription_id: id, invoice_id: 'inv_1' } }, '2026-01-31T00:00:00.000Z');
    expect(subscriptionView.publicType(atCreation)).toBeUndefined();
    expect(subscriptionView.publicType(firstPaid)).toBe('subscription.activated');
    // Stored before the announcement waited for the payment: it was announced, and a replay says so again.
    expect(subscriptionView.publicType(stored({ type: 'SubscriptionActivated', data: activation }, '2026-01-31T00:00:00.000Z'))).toBe('subscription.activated');
    const active = fold([stored({ ...created, data: { ...created.data, status: 'active', trial_end: null } }, '2026-01-31T00:00:00.000Z'), atCreation]);
    expect(active!.trial_days).toBe(0);
    expect(subscriptionView.apply(active, firstPaid)).toBe(active);
  });
});
