import type { ProcessDecider, ProcessInput, TimerFired, CommandRejected } from '@tally/kernel';
import { COMMITMENT_NOTICE_MS, TRIAL_WILL_END_NOTICE_MS } from '../domain/subscription.decider';
import type { SubscriptionEvent } from '../domain/subscription.events';

/** The subscription's events the cycle sets timers for, as they were stored, with when they occurred. */
export type CycleInput = ProcessInput<SubscriptionEvent['type'], SubscriptionEvent['data'] & { occurred_at: string }>;

/** A step of the subscription's state table that a timer triggers. */
export type LifecycleStep =
  | { type: 'EndTrial'; data: Record<string, never> }
  | { type: 'WarnTrialEnding'; data: Record<string, never> }
  | { type: 'ClosePeriod'; data: { period_end: string } }
  | { type: 'WarnCommitmentEnding'; data: { commitment_end: string } }
  | { type: 'ResumeSubscription'; data: { automatic: true; until: string } }
  | { type: 'ExpireIncomplete'; data: Record<string, never> };

export type CycleCommand = { type: 'AdvanceSubscription'; data: { subscription_id: string; step: LifecycleStep } };

type Output = { kind: 'command'; command: CycleCommand } | { kind: 'schedule'; timerId: string; dueAt: string };

export interface CycleState {
  subscriptionId: string | null;
  commitmentEnd: string | null;
}

const before = (at: string, ms: number): string => new Date(Date.parse(at) - ms).toISOString();
const latest = (a: string, b: string): string => (Date.parse(a) >= Date.parse(b) ? a : b);

const advance = (subscriptionId: string, step: LifecycleStep): Output => ({ kind: 'command', command: { type: 'AdvanceSubscription', data: { subscription_id: subscriptionId, step } } });

/**
 * A subscription's timers, one process per subscription: the trial's warning and end, each
 * period's end, the end of a pause, the commitment's warning and the expiry of an incomplete
 * subscription. Timers are named by what they are due for, so a timer set twice is one timer.
 * (Its invoices are issued by the subscription invoicing reaction, from the events themselves.)
 */
export const subscriptionCycleDecider: ProcessDecider<CycleState, CycleInput | TimerFired | CommandRejected, Output> = {
  initialState: () => ({ subscriptionId: null, commitmentEnd: null }),

  evolve(state, message) {
    if (message.kind !== 'input') return state;
    const { input } = message;
    const data = input.data as Record<string, unknown>;
    switch (input.type) {
      case 'SubscriptionCreated':
        return { ...state, subscriptionId: data.subscription_id as string };
      case 'SubscriptionActivated':
      case 'SubscriptionRenewed':
        return { ...state, commitmentEnd: data.commitment_end as string | null };
      default:
        return state;
    }
  },

  decide(input, state) {
    if (input.type === 'TimerFired') return fired(input.data.timer_id, state);
    if (input.type === 'CommandRejected') return [];
    const event = { type: input.type, data: input.data } as SubscriptionEvent;
    const at = input.data.occurred_at;
    switch (event.type) {
      case 'SubscriptionCreated': {
        const { trial_end } = event.data;
        if (trial_end === null) return [];
        return [
          { kind: 'schedule', timerId: 'trial_will_end', dueAt: latest(at, before(trial_end, TRIAL_WILL_END_NOTICE_MS)) },
          { kind: 'schedule', timerId: 'trial_end', dueAt: trial_end },
        ];
      }
      case 'SubscriptionAwaitingPayment':
        // The period's timers come with the activation its payment brings.
        return [{ kind: 'schedule', timerId: `incomplete_expiry:${event.data.expires_at}`, dueAt: event.data.expires_at }];
      case 'SubscriptionActivated':
      case 'SubscriptionRenewed': {
        const { period_start, period_end, commitment_end } = event.data;
        const outputs: Output[] = [{ kind: 'schedule', timerId: `period_end:${period_end}`, dueAt: period_end }];
        if (commitment_end !== null && commitment_end !== state.commitmentEnd) outputs.push({ kind: 'schedule', timerId: `commitment_ending:${commitment_end}`, dueAt: latest(period_start, before(commitment_end, COMMITMENT_NOTICE_MS)) });
        return outputs;
      }
      case 'SubscriptionPaused': {
        // Named by the end it is due for: two pauses at one instant (a frozen test clock) with other ends are two timers.
        const { until } = event.data;
        return until === null ? [] : [{ kind: 'schedule', timerId: `resume:${until}`, dueAt: until }];
      }
      default:
        return [];
    }
  },
};

function fired(timerId: string, state: CycleState): Output[] {
  if (!state.subscriptionId) return [];
  const [kind, at] = splitTimer(timerId);
  switch (kind) {
    case 'trial_will_end':
      return [advance(state.subscriptionId, { type: 'WarnTrialEnding', data: {} })];
    case 'trial_end':
      return [advance(state.subscriptionId, { type: 'EndTrial', data: {} })];
    case 'period_end':
      return [advance(state.subscriptionId, { type: 'ClosePeriod', data: { period_end: at } })];
    case 'commitment_ending':
      return [advance(state.subscriptionId, { type: 'WarnCommitmentEnding', data: { commitment_end: at } })];
    case 'resume':
      return [advance(state.subscriptionId, { type: 'ResumeSubscription', data: { automatic: true, until: at } })];
    case 'incomplete_expiry':
      return [advance(state.subscriptionId, { type: 'ExpireIncomplete', data: {} })];
    default:
      return [];
  }
}

/** `period_end:2026-02-28T10:00:00.000Z` → [`period_end`, the instant]. */
function splitTimer(timerId: string): [string, string] {
  const colon = timerId.indexOf(':');
  return colon < 0 ? [timerId, ''] : [timerId.slice(0, colon), timerId.slice(colon + 1)];
}
