import { runProcess, type TimerFired } from '@tally/kernel';
import { ProcessSpecification } from '@tally/kernel/testing/process-spec';
import type { PeriodTerms, SubscriptionEvent } from '../domain/subscription.events';
import { subscriptionCycleDecider, type CycleInput, type InvoiceRequest, type LifecycleStep } from './subscription-cycle.decider';

const spec = ProcessSpecification.for(subscriptionCycleDecider);
const id = 'sub_1';
const T0 = '2026-01-31T10:00:00.000Z';
const FEB = '2026-02-28T10:00:00.000Z';
const MAR = '2026-03-31T10:00:00.000Z';
let n = 0;
const input = (event: SubscriptionEvent, occurred_at: string): CycleInput => ({ id: `e${n++}`, type: event.type, data: { ...event.data, occurred_at } }) as CycleInput;
const fire = (timer_id: string): TimerFired => ({ id: `t${n++}`, type: 'TimerFired', data: { timer_id } });

const terms: PeriodTerms = { plan_code: 'pro', quantities: { seats: 2 }, coupons: ['WELCOME'], prorations: [] };
const createdData = {
  subscription_id: id,
  customer_id: 'cus_1',
  plan_code: 'pro',
  currency: 'EUR',
  cadence: { interval: 'month' as const, count: 1 },
  quantities: { seats: 2 },
  coupons: ['WELCOME'],
  metadata: {},
  default_payment_method_id: null,
  commitment: null,
  billing_cycle_anchor: T0,
  period_start: T0,
  period_end: FEB,
};
const created = input({ type: 'SubscriptionCreated', data: { ...createdData, status: 'active', trial_end: null } }, T0);
const trialing = input({ type: 'SubscriptionCreated', data: { ...createdData, status: 'trialing', trial_end: '2026-02-14T10:00:00.000Z', period_end: '2026-02-14T10:00:00.000Z' } }, T0);
const activated = input({ type: 'SubscriptionActivated', data: { subscription_id: id, period_start: T0, period_end: FEB, terms, commitment_end: null } }, T0);
const renewed = (prorations = terms.prorations) => input({ type: 'SubscriptionRenewed', data: { subscription_id: id, period_start: FEB, period_end: MAR, terms: { ...terms, prorations }, commitment_end: null } }, FEB);

const invoice = (data: Partial<InvoiceRequest>): InvoiceRequest => ({
  subscription_id: id,
  customer_id: 'cus_1',
  key: `period:${T0}`,
  billing_reason: 'subscription_create',
  plan_code: 'pro',
  licensed: { plan_code: 'pro', quantities: { seats: 2 }, period: { start: T0, end: FEB } },
  usage: null,
  prorations: [],
  coupons: ['WELCOME'],
  period_number: 1,
  collection: 'charge',
  ...data,
});
const issue = (data: Partial<InvoiceRequest>) => ({ kind: 'command' as const, command: { type: 'IssueInvoice' as const, data: invoice(data) } });
const advance = (step: LifecycleStep) => ({ kind: 'command' as const, command: { type: 'AdvanceSubscription' as const, data: { subscription_id: id, step } } });

describe('the subscription cycle', () => {
  it('invoices the first period in advance at activation', () => spec.given([created]).when(activated).then([issue({})]));

  it('bills the first paid period after a trial as a cycle invoice', () =>
    spec
      .given([trialing])
      .when(input({ type: 'SubscriptionActivated', data: { subscription_id: id, period_start: '2026-02-14T10:00:00.000Z', period_end: '2026-03-14T10:00:00.000Z', terms, commitment_end: null } }, '2026-02-14T10:00:00.000Z'))
      .then([
        issue({ key: 'period:2026-02-14T10:00:00.000Z', billing_reason: 'subscription_cycle', licensed: { plan_code: 'pro', quantities: { seats: 2 }, period: { start: '2026-02-14T10:00:00.000Z', end: '2026-03-14T10:00:00.000Z' } } }),
      ]));

  it('bills a first, shorter period up to the anchor as the remaining time of its whole period', () => {
    const whole = { start: '2026-01-28T10:00:00.000Z', end: FEB };
    spec
      .given([created])
      .when(input({ type: 'SubscriptionActivated', data: { subscription_id: id, period_start: T0, period_end: FEB, terms: { ...terms, whole_period: whole }, commitment_end: null } }, T0))
      .then([issue({ licensed: { plan_code: 'pro', quantities: { seats: 2 }, period: { start: T0, end: FEB }, whole_period: whole } })]);
  });

  it('on renewal, bills the new period in advance, the closed one’s usage in arrears, and the prorations', () => {
    const prorations = [{ code: 'seats', description: 'Remaining time on seats', amount: '5.00', period_start: '2026-02-20T10:00:00.000Z', period_end: FEB, price_version: 1, tax_code: 'standard' }];
    spec
      .given([created, activated])
      .when(renewed(prorations))
      .then([
        issue({
          key: `period:${FEB}`,
          billing_reason: 'subscription_cycle',
          licensed: { plan_code: 'pro', quantities: { seats: 2 }, period: { start: FEB, end: MAR } },
          usage: { plan_code: 'pro', period: { start: T0, end: FEB } },
          prorations,
          period_number: 2,
        }),
      ]);
  });

  it('collects the invoices of a paused subscription as the pause says', () => {
    const paused = input({ type: 'SubscriptionPaused', data: { subscription_id: id, paused_at: '2026-02-10T00:00:00.000Z', until: '2026-04-01T00:00:00.000Z', behavior: 'void_invoices' } }, '2026-02-10T00:00:00.000Z');
    spec.given([created, activated]).when(paused).then([
      { kind: 'command', command: { type: 'ApplyPauseToOpenInvoices', data: { subscription_id: id, behavior: 'void_invoices', current_invoice_key: `period:${T0}` } } },
    ]);
    const [command] = subscriptionCycleDecider.decide(renewed(), [created, activated, paused].reduce((state, message) => subscriptionCycleDecider.evolve(state, { kind: 'input', input: message }), subscriptionCycleDecider.initialState()));
    expect(command).toMatchObject({ kind: 'command', command: { data: { collection: 'void_invoices' } } });
  });

  it('invoices `always_invoice` prorations at once, and leaves other plan changes to the next period', () => {
    const prorations = [{ code: 'base', description: 'Remaining time on base', amount: '14.00', period_start: '2026-02-14T10:00:00.000Z', period_end: FEB, price_version: 2, tax_code: 'standard' }];
    const changed = (invoice_now: boolean) =>
      input({ type: 'SubscriptionPlanChanged', data: { subscription_id: id, plan_code: 'max', previous_plan_code: 'pro', changed_at: '2026-02-14T10:00:00.000Z', prorations, invoice_now } }, '2026-02-14T10:00:00.000Z');
    const now = changed(true);
    spec.given([created, activated]).when(now).then([issue({ key: `proration:2026-02-14T10:00:00.000Z:${now.id}`, billing_reason: 'subscription_update', licensed: null, prorations })]);
    spec.given([created, activated]).when(changed(false)).thenNothingHappens();
  });

  it('invoices two `always_invoice` changes at one instant (a frozen test clock) as two invoices', () => {
    const prorations = [{ code: 'base', description: 'Remaining time on base', amount: '14.00', period_start: '2026-02-14T10:00:00.000Z', period_end: FEB, price_version: 2, tax_code: 'standard' }];
    const changed = () =>
      input({ type: 'SubscriptionPlanChanged', data: { subscription_id: id, plan_code: 'max', previous_plan_code: 'pro', changed_at: '2026-02-14T10:00:00.000Z', prorations, invoice_now: true } }, '2026-02-14T10:00:00.000Z');
    const [first, second] = [changed(), changed()];
    const keyOf = (outputs: ReturnType<typeof subscriptionCycleDecider.decide>) => (outputs[0] as { command: { data: InvoiceRequest } }).command.data.key;
    const state = [created, activated, first].reduce((s, message) => subscriptionCycleDecider.evolve(s, { kind: 'input', input: message }), subscriptionCycleDecider.initialState());
    expect(keyOf(subscriptionCycleDecider.decide(second, state))).not.toBe(keyOf(subscriptionCycleDecider.decide(first, state)));
  });

  it('closes with a final invoice at cancellation: the usage up to then, and the credit for unused time', () => {
    const credit = [{ code: 'base', description: 'Unused time on base', amount: '-10.00', period_start: '2026-02-18T10:00:00.000Z', period_end: FEB, price_version: 1, tax_code: 'standard' }];
    spec
      .given([created, activated])
      .when(input({ type: 'SubscriptionCanceled', data: { subscription_id: id, canceled_at: '2026-02-18T10:00:00.000Z', reason: null, prorations: credit } }, '2026-02-18T10:00:00.000Z'))
      .then([issue({ key: 'final:2026-02-18T10:00:00.000Z', billing_reason: 'subscription_cancel', licensed: null, usage: { plan_code: 'pro', period: { start: T0, end: '2026-02-18T10:00:00.000Z' } }, prorations: credit })]);
  });

  it('closes with a final invoice when a commitment ends without renewal: the last period’s usage and the prorations still pending', () => {
    const pending = [{ code: 'seats', description: 'Remaining time on seats', amount: '5.00', period_start: '2026-02-20T10:00:00.000Z', period_end: FEB, price_version: 1, tax_code: 'standard' }];
    spec
      .given([created, activated])
      .when(input({ type: 'SubscriptionEnded', data: { subscription_id: id, ended_at: FEB, prorations: pending } }, FEB))
      .then([issue({ key: `final:${FEB}`, billing_reason: 'subscription_cycle', licensed: null, usage: { plan_code: 'pro', period: { start: T0, end: FEB } }, prorations: pending })]);
  });

  it('tells the subscription when one of its invoices is paid (a past-due subscription recovers)', () =>
    spec
      .given([created, activated])
      .when({ id: 'e-paid', type: 'InvoicePaid', data: { invoice_id: 'inv_1', subscription_id: id, occurred_at: FEB } })
      .then([advance({ type: 'RecordInvoicePaid', data: { invoice_id: 'inv_1' } })]));

  it('issues no final invoice for a subscription canceled because its customer was deleted', () =>
    spec
      .given([created, activated])
      .when(input({ type: 'SubscriptionCanceled', data: { subscription_id: id, canceled_at: FEB, reason: 'customer_deleted', prorations: [], final_invoice: false } }, FEB))
      .thenNothingHappens());

  it('fires nothing on a timer it set before the subscription owned its timers', () => {
    spec.given([created, activated]).when(fire(`period_end:${FEB}`)).thenNothingHappens();
    spec.given([trialing]).when(fire('trial_end')).thenNothingHappens();
  });

  it('keeps a state that a snapshot (JSON) gives back unchanged, as the process snapshots it', () => {
    const paused = input({ type: 'SubscriptionPaused', data: { subscription_id: id, paused_at: FEB, until: null, behavior: 'keep_as_draft' } }, FEB);
    const state = runProcess(subscriptionCycleDecider, [trialing, activated, renewed(), paused, fire(`period_end:${MAR}`)]);
    expect(state.period).toEqual({ start: FEB, end: MAR });
    expect(JSON.parse(JSON.stringify(state))).toStrictEqual(state);
  });
});
