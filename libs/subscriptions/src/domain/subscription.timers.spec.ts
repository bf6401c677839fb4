import { DeciderSpecification } from '@tally/kernel/testing/decider-spec';
import { subscriptionDecider, type CreateSubscription } from './subscription.decider';
import type { SubscriptionCreated, SubscriptionEvent } from './subscription.events';
import { subscriptionTimers } from './subscription.timers';

const spec = DeciderSpecification.for(subscriptionDecider, subscriptionTimers);
const subscription_id = 'sub_01JSUBSCRIPTION0000000000';
const T0 = '2026-01-31T10:00:00.000Z';
const FEB = '2026-02-28T10:00:00.000Z';
const MAR = '2026-03-31T10:00:00.000Z';

const create: CreateSubscription = {
  type: 'CreateSubscription',
  data: {
    subscription_id,
    customer_id: 'cus_1',
    plan_code: 'pro',
    currency: 'EUR',
    cadence: { interval: 'month', count: 1 },
    payment_behavior: 'allow_incomplete',
    proration_behavior: 'create_prorations',
    quantities: {},
    coupons: [],
    metadata: {},
    default_payment_method_id: null,
    commitment: null,
    at: T0,
    trial_days: 0,
    billing_cycle_anchor: null,
  },
};
const [created, activated] = subscriptionDecider.decide(create, subscriptionDecider.initialState()) as [SubscriptionCreated, SubscriptionEvent];
const [trialing] = subscriptionDecider.decide({ ...create, data: { ...create.data, trial_days: 14 } }, subscriptionDecider.initialState());
const TRIAL_END = '2026-02-14T10:00:00.000Z';

/** Everything a renewal at the end of February does to the timers: the next period's end replaces the others. */
const renewalTimers = (periodEnd: string) => [
  { cancelEvery: 'incomplete_expiry:' },
  { cancel: 'trial_will_end' },
  { cancel: 'trial_end' },
  { cancelEvery: 'period_end:' },
  { schedule: { name: `period_end:${periodEnd}`, due_at: periodEnd, command: { type: 'ClosePeriod' as const, data: { subscription_id, period_end: periodEnd } } } },
];

describe('the subscription’s timers', () => {
  it('a trial sets its warning three days before its end, and its end, each coming back as its command', () =>
    spec.given([]).when({ ...create, data: { ...create.data, trial_days: 14 } }).thenTimers(T0, [
      { schedule: { name: 'trial_will_end', due_at: '2026-02-11T10:00:00.000Z', command: { type: 'WarnTrialEnding', data: { subscription_id } } } },
      { schedule: { name: 'trial_end', due_at: TRIAL_END, command: { type: 'EndTrial', data: { subscription_id, at: TRIAL_END } } } },
    ]));

  it('a trial shorter than the warning’s notice is warned at once', () =>
    spec.given([]).when({ ...create, data: { ...create.data, trial_days: 2 } }).thenTimers(T0, [
      { schedule: { name: 'trial_will_end', due_at: T0, command: { type: 'WarnTrialEnding', data: { subscription_id } } } },
      { schedule: { name: 'trial_end', due_at: '2026-02-02T10:00:00.000Z', command: { type: 'EndTrial', data: { subscription_id, at: '2026-02-02T10:00:00.000Z' } } } },
    ]));

  it('an activation sets the end of its period; the end renews it and sets the next one', () => {
    spec.given([]).when(create).thenTimers(T0, renewalTimers(FEB));
    spec.given([created, activated]).when({ type: 'ClosePeriod', data: { subscription_id, period_end: FEB } }).thenTimers(FEB, renewalTimers(MAR));
  });

  it('the period end’s command renews once: fired again, or late, it decides nothing', () => {
    const [renewed] = subscriptionDecider.decide({ type: 'ClosePeriod', data: { subscription_id, period_end: FEB } }, [created, activated].reduce(subscriptionDecider.evolve, subscriptionDecider.initialState()));
    spec.given([created, activated, renewed]).when({ type: 'ClosePeriod', data: { subscription_id, period_end: FEB } }).thenNothingHappens();
  });

  it('the trial’s end activates the subscription, which ends the trial’s timers and sets its first period’s end', () =>
    spec.given([trialing]).when({ type: 'EndTrial', data: { subscription_id, at: TRIAL_END } }).thenTimers(TRIAL_END, renewalTimers('2026-03-14T10:00:00.000Z')));

  it('a commitment sets its warning 30 days before it ends', () =>
    spec
      .given([])
      .when({ ...create, data: { ...create.data, commitment: { periods: 3, renewal: 'none' } } })
      .thenTimers(T0, [
        ...renewalTimers(FEB),
        {
          schedule: {
            name: 'commitment_ending:2026-04-30T10:00:00.000Z',
            due_at: '2026-03-31T10:00:00.000Z',
            command: { type: 'WarnCommitmentEnding', data: { subscription_id, commitment_end: '2026-04-30T10:00:00.000Z' } },
          },
        },
      ]));

  it('a pause with an end sets the automatic resume, named by that end; a resume cancels it', () => {
    const until = '2026-04-01T00:00:00.000Z';
    spec
      .given([created, activated])
      .when({ type: 'PauseSubscription', data: { subscription_id, at: '2026-02-05T00:00:00.000Z', until, behavior: 'keep_as_draft' } })
      .thenTimers('2026-02-05T00:00:00.000Z', [{ schedule: { name: `resume:${until}`, due_at: until, command: { type: 'ResumeSubscription', data: { subscription_id, at: until, automatic: true, until } } } }]);
    const paused: SubscriptionEvent = { type: 'SubscriptionPaused', data: { subscription_id, paused_at: '2026-02-05T00:00:00.000Z', until, behavior: 'keep_as_draft' } };
    spec.given([created, activated, paused]).when({ type: 'ResumeSubscription', data: { subscription_id, at: '2026-02-10T00:00:00.000Z', automatic: false } }).thenTimers('2026-02-10T00:00:00.000Z', [{ cancelEvery: 'resume:' }]);
  });

  it('a subscription awaiting its first payment sets the end of its wait (its activation cancels it)', () => {
    const expires = '2026-02-01T09:00:00.000Z';
    spec
      .given([])
      .when({ ...create, data: { ...create.data, payment_behavior: 'default_incomplete' } })
      .thenTimers(T0, [{ schedule: { name: `incomplete_expiry:${expires}`, due_at: expires, command: { type: 'ExpireIncomplete', data: { subscription_id, at: expires } } } }]);
  });

  it('a cancellation at the period’s end drops the trial’s warning; a cancellation now ends every timer', () => {
    spec.given([trialing]).when({ type: 'CancelSubscription', data: { subscription_id, at: T0, when: 'period_end', reason: null, charges: [] } }).thenTimers(T0, [{ cancel: 'trial_will_end' }]);
    spec.given([created, activated]).when({ type: 'CancelSubscription', data: { subscription_id, at: FEB, when: 'now', reason: null, charges: [] } }).thenTimers(FEB, [{ cancelEvery: '' }]);
  });

  it('the trial’s warning, fired, cancels its own timer (a stream written before timers were the subscription’s ends it too)', () =>
    spec.given([trialing]).when({ type: 'WarnTrialEnding', data: { subscription_id } }).thenTimers('2026-02-11T10:00:00.000Z', [{ cancel: 'trial_will_end' }]));
});
