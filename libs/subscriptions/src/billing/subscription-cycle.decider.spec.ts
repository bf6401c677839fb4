import { runProcess, type TimerFired } from '@tally/kernel';
import { ProcessSpecification } from '@tally/kernel/testing/process-spec';
import type { PeriodTerms, SubscriptionEvent } from '../domain/subscription.events';
import { subscriptionCycleDecider, type CycleInput, type LifecycleStep } from './subscription-cycle.decider';

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

const advance = (step: LifecycleStep) => ({ kind: 'command' as const, command: { type: 'AdvanceSubscription' as const, data: { subscription_id: id, step } } });

describe('the subscription cycle', () => {
  it('sets the trial’s timers: the warning 3 days before its end, and its end', () =>
    spec.given([]).when(trialing).then([
      { kind: 'schedule', timerId: 'trial_will_end', dueAt: '2026-02-11T10:00:00.000Z' },
      { kind: 'schedule', timerId: 'trial_end', dueAt: '2026-02-14T10:00:00.000Z' },
    ]));

  it('turns the trial’s timers into its steps', () => {
    spec.given([trialing]).when(fire('trial_will_end')).then([advance({ type: 'WarnTrialEnding', data: {} })]);
    spec.given([trialing]).when(fire('trial_end')).then([advance({ type: 'EndTrial', data: {} })]);
  });

  it('sets the timer of the first period’s end at activation', () => spec.given([created]).when(activated).then([{ kind: 'schedule', timerId: `period_end:${FEB}`, dueAt: FEB }]));

  it('sets the expiry of a subscription awaiting its first payment, and turns it into its step', () => {
    const awaiting = input({ type: 'SubscriptionAwaitingPayment', data: { subscription_id: id, period_start: T0, period_end: FEB, terms, expires_at: '2026-02-01T09:00:00.000Z' } }, T0);
    spec.given([created]).when(awaiting).then([{ kind: 'schedule', timerId: 'incomplete_expiry:2026-02-01T09:00:00.000Z', dueAt: '2026-02-01T09:00:00.000Z' }]);
    spec.given([created, awaiting]).when(fire('incomplete_expiry:2026-02-01T09:00:00.000Z')).then([advance({ type: 'ExpireIncomplete', data: {} })]);
  });

  it('closes the period when its timer fires', () => spec.given([created, activated]).when(fire(`period_end:${FEB}`)).then([advance({ type: 'ClosePeriod', data: { period_end: FEB } })]));

  it('sets the timer of the next period’s end on renewal, and the commitment’s warning once per commitment end', () => {
    const committed = input({ type: 'SubscriptionActivated', data: { subscription_id: id, period_start: T0, period_end: FEB, terms, commitment_end: '2026-07-31T10:00:00.000Z' } }, T0);
    const warning = { kind: 'schedule' as const, timerId: 'commitment_ending:2026-07-31T10:00:00.000Z', dueAt: '2026-07-01T10:00:00.000Z' };
    spec.given([created]).when(committed).then([{ kind: 'schedule', timerId: `period_end:${FEB}`, dueAt: FEB }, warning]);
    const renewedCommitted = input({ type: 'SubscriptionRenewed', data: { subscription_id: id, period_start: FEB, period_end: MAR, terms, commitment_end: '2026-07-31T10:00:00.000Z' } }, FEB);
    spec.given([created, committed]).when(renewedCommitted).then([{ kind: 'schedule', timerId: `period_end:${MAR}`, dueAt: MAR }]);
    spec.given([created, committed]).when(fire('commitment_ending:2026-07-31T10:00:00.000Z')).then([advance({ type: 'WarnCommitmentEnding', data: { commitment_end: '2026-07-31T10:00:00.000Z' } })]);
  });

  it('sets the automatic resume of a pause with an end, and turns it into its step', () => {
    const paused = input({ type: 'SubscriptionPaused', data: { subscription_id: id, paused_at: '2026-02-10T00:00:00.000Z', until: '2026-04-01T00:00:00.000Z', behavior: 'void_invoices' } }, '2026-02-10T00:00:00.000Z');
    spec.given([created, activated]).when(paused).then([{ kind: 'schedule', timerId: 'resume:2026-04-01T00:00:00.000Z', dueAt: '2026-04-01T00:00:00.000Z' }]);
    spec.given([created, activated, paused]).when(fire('resume:2026-04-01T00:00:00.000Z')).then([advance({ type: 'ResumeSubscription', data: { automatic: true, until: '2026-04-01T00:00:00.000Z' } })]);
  });

  it('asks for no invoice and follows no payment: those are reactions’', () => {
    spec.given([created]).when(renewed()).then([{ kind: 'schedule', timerId: `period_end:${MAR}`, dueAt: MAR }]);
    spec.given([created, activated]).when(input({ type: 'SubscriptionCanceled', data: { subscription_id: id, canceled_at: '2026-02-18T10:00:00.000Z', reason: null, prorations: [] } }, '2026-02-18T10:00:00.000Z')).thenNothingHappens();
  });

  it('ignores timers before the subscription is known', () => spec.given([]).when(fire(`period_end:${FEB}`)).thenNothingHappens());

  it('keeps a state that a snapshot (JSON) gives back unchanged, as the process snapshots it', () => {
    const paused = input({ type: 'SubscriptionPaused', data: { subscription_id: id, paused_at: FEB, until: null, behavior: 'keep_as_draft' } }, FEB);
    const state = runProcess(subscriptionCycleDecider, [trialing, activated, renewed(), paused, fire(`period_end:${MAR}`)]);
    expect(state).toEqual({ subscriptionId: id, commitmentEnd: null });
    expect(JSON.parse(JSON.stringify(state))).toStrictEqual(state);
  });
});
