import type { AggregateTimers, TimerChange } from '@tally/kernel';
import { COMMITMENT_NOTICE_MS, TRIAL_WILL_END_NOTICE_MS, type SubscriptionCommand } from './subscription.decider';
import type { SubscriptionEvent } from './subscription.events';

type Change = TimerChange<SubscriptionCommand>;

const before = (at: string, ms: number): string => new Date(Date.parse(at) - ms).toISOString();
const latest = (a: string, b: string): string => (Date.parse(a) >= Date.parse(b) ? a : b);

/**
 * The subscription's state table in time: the trial's warning and end, each period's end, the
 * end of a pause, the commitment's warning and the wait for a first payment. Each timer is named
 * by what it is due for, so a timer set twice is one timer and one that fired stays fired; its
 * command happens at its due time, and the decider ignores it once the subscription moved on.
 * An event that makes a timer moot cancels it, so that it never comes back to nothing.
 */
export const subscriptionTimers: AggregateTimers<SubscriptionCommand, SubscriptionEvent> = (event, occurredAt) => {
  switch (event.type) {
    case 'SubscriptionCreated': {
      const { subscription_id, trial_end } = event.data;
      if (trial_end === null) return [];
      return [
        schedule('trial_will_end', latest(occurredAt, before(trial_end, TRIAL_WILL_END_NOTICE_MS)), { type: 'WarnTrialEnding', data: { subscription_id } }),
        schedule('trial_end', trial_end, { type: 'EndTrial', data: { subscription_id, at: trial_end } }),
      ];
    }
    case 'SubscriptionAwaitingPayment': {
      const { subscription_id, expires_at } = event.data;
      return [schedule(`incomplete_expiry:${expires_at}`, expires_at, { type: 'ExpireIncomplete', data: { subscription_id, at: expires_at } })];
    }
    case 'SubscriptionActivated':
    case 'SubscriptionRenewed': {
      const { subscription_id, period_start, period_end, commitment_end } = event.data;
      const changes: Change[] = [
        { cancelEvery: 'incomplete_expiry:' },
        { cancel: 'trial_will_end' },
        { cancel: 'trial_end' },
        { cancelEvery: 'period_end:' },
        schedule(`period_end:${period_end}`, period_end, { type: 'ClosePeriod', data: { subscription_id, period_end } }),
      ];
      if (commitment_end !== null) {
        const warnAt = latest(period_start, before(commitment_end, COMMITMENT_NOTICE_MS));
        changes.push(schedule(`commitment_ending:${commitment_end}`, warnAt, { type: 'WarnCommitmentEnding', data: { subscription_id, commitment_end } }));
      }
      return changes;
    }
    case 'SubscriptionTrialWillEnd':
      return [{ cancel: 'trial_will_end' }];
    case 'SubscriptionCancellationScheduled':
      // A trial that ends in a cancellation gives no warning of its end.
      return [{ cancel: 'trial_will_end' }];
    case 'SubscriptionCommitmentEnding':
      return [{ cancel: `commitment_ending:${event.data.commitment_end}` }];
    case 'SubscriptionPaused': {
      const { subscription_id, until } = event.data;
      // Named by the end it is due for: two pauses at one instant (a frozen test clock) with other ends are two timers.
      if (until === null) return [];
      return [schedule(`resume:${until}`, until, { type: 'ResumeSubscription', data: { subscription_id, at: until, automatic: true, until } })];
    }
    case 'SubscriptionResumed':
      return [{ cancelEvery: 'resume:' }];
    case 'SubscriptionCanceled':
    case 'SubscriptionEnded':
    case 'SubscriptionIncompleteExpired':
      return [{ cancelEvery: '' }];
    case 'SubscriptionFirstInvoicePaid':
    case 'SubscriptionUpdated':
    case 'SubscriptionPlanChanged':
    case 'SubscriptionPlanChangeScheduled':
    case 'SubscriptionQuantityChanged':
    case 'SubscriptionQuantityScheduled':
    case 'SubscriptionPastDue':
    case 'SubscriptionRecovered':
    case 'SubscriptionRefundProcessed':
      return [];
  }
};

const schedule = (name: string, due_at: string, command: SubscriptionCommand): Change => ({ schedule: { name, due_at, command } });
