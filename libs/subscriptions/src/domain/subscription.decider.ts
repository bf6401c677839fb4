import { checkMetadata, DomainError, type Command, type Decider, type Metadata } from '@tally/kernel';
import { periodAt, type Cadence, type Period } from './billing-cycle';
import type { PauseBehavior, SubscriptionCreated, SubscriptionEvent, SubscriptionStatus } from './subscription.events';

const DAY_MS = 86_400_000;
/** Stripe's limit on a trial. */
export const MAX_TRIAL_DAYS = 730;

export type SubscriptionState =
  | { status: 'none' }
  | {
      status: SubscriptionStatus;
      id: string;
      anchor: string;
      cadence: Cadence;
      period: Period;
      trialEnd: string | null;
      /** Set by a cancellation at period end: why, or null without a reason. */
      scheduledCancellation: { reason: string | null } | null;
      /** The invoice whose failed payment made it past due; paying it makes the subscription active again. */
      pastDueInvoice: string | null;
    };

type Live = Exclude<SubscriptionState, { status: 'none' }>;

/** `at` in every command is "now" on the subscription's clock, given by the handler: the decider reads no clock. */
export type CreateSubscription = Command<
  'CreateSubscription',
  Omit<SubscriptionCreated['data'], 'status' | 'trial_end' | 'billing_cycle_anchor' | 'period_start' | 'period_end'> & {
    at: string;
    /** The subscription's own trial, else the plan's; 0 disables it. */
    trial_days: number;
    billing_cycle_anchor: string | null;
  }
>;
export type EndTrial = Command<'EndTrial', { subscription_id: string; at: string }>;
/** The timer at the end of a period: `period_end` names the period, so a timer that fires twice renews once. */
export type ClosePeriod = Command<'ClosePeriod', { subscription_id: string; period_end: string }>;
export type PauseSubscription = Command<'PauseSubscription', { subscription_id: string; at: string; until: string | null; behavior: PauseBehavior }>;
/** A manual resume, or the automatic one at `paused_until` (which does nothing when a manual one came first). */
export type ResumeSubscription = Command<'ResumeSubscription', { subscription_id: string; at: string; automatic: boolean }>;
export type CancelSubscription = Command<'CancelSubscription', { subscription_id: string; at: string; when: 'now' | 'period_end'; reason: string | null }>;
export type MarkPastDue = Command<'MarkPastDue', { subscription_id: string; invoice_id: string }>;
export type RecordInvoicePaid = Command<'RecordInvoicePaid', { subscription_id: string; invoice_id: string }>;

export type SubscriptionCommand = CreateSubscription | EndTrial | ClosePeriod | PauseSubscription | ResumeSubscription | CancelSubscription | MarkPastDue | RecordInvoicePaid;

const notFound = (id: string) => DomainError.notFound('subscription.not_found', `No subscription ${id}`);
const TERMINAL: readonly SubscriptionStatus[] = ['canceled', 'ended', 'incomplete_expired'];

export const subscriptionDecider: Decider<SubscriptionState, SubscriptionCommand, SubscriptionEvent> = {
  initialState: () => ({ status: 'none' }),

  decide(command, state) {
    if (command.type === 'CreateSubscription') return state.status === 'none' ? create(command.data) : [];
    if (state.status === 'none') throw notFound(command.data.subscription_id);
    const id = state.id;
    switch (command.type) {
      case 'EndTrial': {
        if (state.status !== 'trialing' || state.trialEnd === null) return [];
        if (state.scheduledCancellation) return [{ type: 'SubscriptionCanceled', data: { subscription_id: id, canceled_at: state.trialEnd, reason: state.scheduledCancellation.reason, credit_from: null } }];
        const period = firstPeriod(state.trialEnd, state.anchor, state.cadence);
        return [{ type: 'SubscriptionActivated', data: { subscription_id: id, period_start: period.start, period_end: period.end } }];
      }
      case 'ClosePeriod': {
        if (TERMINAL.includes(state.status) || state.status === 'trialing' || command.data.period_end !== state.period.end) return [];
        if (state.scheduledCancellation) return [{ type: 'SubscriptionCanceled', data: { subscription_id: id, canceled_at: state.period.end, reason: state.scheduledCancellation.reason, credit_from: null } }];
        const next = periodAt(state.anchor, state.cadence, state.period.end);
        return [{ type: 'SubscriptionRenewed', data: { subscription_id: id, period_start: next.start, period_end: next.end } }];
      }
      case 'PauseSubscription': {
        const { at, until, behavior } = command.data;
        if (state.status === 'paused') throw DomainError.conflict('subscription.already_paused', `Subscription ${id} is paused already; resume it first`);
        if (state.status !== 'active') throw invalidState(state, 'paused', 'only an active subscription can be paused');
        if (until !== null && Date.parse(until) <= Date.parse(at)) {
          throw DomainError.unprocessable('subscription.invalid_pause_until', '`until` must be later than now', [{ field: 'until', code: 'subscription.invalid_pause_until', message: 'must be in the future' }]);
        }
        return [{ type: 'SubscriptionPaused', data: { subscription_id: id, paused_at: at, until, behavior } }];
      }
      case 'ResumeSubscription': {
        if (state.status === 'paused') return [{ type: 'SubscriptionResumed', data: { subscription_id: id, resumed_at: command.data.at, automatic: command.data.automatic } }];
        if (command.data.automatic) return [];
        throw DomainError.conflict('subscription.not_paused', `Subscription ${id} is ${state.status}, not paused`);
      }
      case 'CancelSubscription': {
        const { at, when, reason } = command.data;
        if (TERMINAL.includes(state.status)) throw DomainError.conflict('subscription.already_canceled', `Subscription ${id} is ${state.status} already`);
        if (when === 'period_end') {
          if (state.scheduledCancellation) return [];
          const cancelAt = state.status === 'trialing' ? state.trialEnd! : state.period.end;
          return [{ type: 'SubscriptionCancellationScheduled', data: { subscription_id: id, cancel_at: cancelAt, reason } }];
        }
        // Unused time is credited only where a period was invoiced: not in a trial, nor in a pause.
        const creditFrom = state.status === 'active' || state.status === 'past_due' ? at : null;
        return [{ type: 'SubscriptionCanceled', data: { subscription_id: id, canceled_at: at, reason, credit_from: creditFrom } }];
      }
      case 'MarkPastDue': {
        if (state.status === 'past_due' || TERMINAL.includes(state.status)) return [];
        if (state.status !== 'active') throw invalidState(state, 'past_due', 'only an active subscription falls past due');
        return [{ type: 'SubscriptionPastDue', data: { subscription_id: id, invoice_id: command.data.invoice_id } }];
      }
      case 'RecordInvoicePaid': {
        if (state.status !== 'past_due' || command.data.invoice_id !== state.pastDueInvoice) return [];
        return [{ type: 'SubscriptionRecovered', data: { subscription_id: id, invoice_id: command.data.invoice_id } }];
      }
    }
  },

  evolve(state, event) {
    if (event.type === 'SubscriptionCreated') {
      const { subscription_id, status, billing_cycle_anchor, cadence, period_start, period_end, trial_end } = event.data;
      return { status, id: subscription_id, anchor: billing_cycle_anchor, cadence, period: { start: period_start, end: period_end }, trialEnd: trial_end, scheduledCancellation: null, pastDueInvoice: null };
    }
    if (state.status === 'none') return state;
    switch (event.type) {
      case 'SubscriptionActivated':
      case 'SubscriptionRenewed':
        return { ...state, status: event.type === 'SubscriptionActivated' ? 'active' : state.status, period: { start: event.data.period_start, end: event.data.period_end } };
      case 'SubscriptionPaused':
        return { ...state, status: 'paused' };
      case 'SubscriptionResumed':
        return { ...state, status: 'active' };
      case 'SubscriptionCancellationScheduled':
        return { ...state, scheduledCancellation: { reason: event.data.reason } };
      case 'SubscriptionCanceled':
        return { ...state, status: 'canceled' };
      case 'SubscriptionPastDue':
        return { ...state, status: 'past_due', pastDueInvoice: event.data.invoice_id };
      case 'SubscriptionRecovered':
        return { ...state, status: 'active', pastDueInvoice: null };
    }
  },
};

function create(data: CreateSubscription['data']): SubscriptionEvent[] {
  const { at, trial_days, billing_cycle_anchor, ...rest } = data;
  checkMetadata(rest.metadata as Metadata);
  if (!Number.isInteger(trial_days) || trial_days < 0 || trial_days > MAX_TRIAL_DAYS) {
    throw DomainError.invalid('subscription.invalid_trial_days', `trial_days is a whole number from 0 to ${MAX_TRIAL_DAYS}`, [{ field: 'trial_days', code: 'subscription.invalid_trial_days', message: `0 to ${MAX_TRIAL_DAYS}` }]);
  }
  if (billing_cycle_anchor !== null && Date.parse(billing_cycle_anchor) < Date.parse(at)) {
    throw DomainError.unprocessable('subscription.invalid_billing_cycle_anchor', 'billing_cycle_anchor must not be in the past', [{ field: 'billing_cycle_anchor', code: 'subscription.invalid_billing_cycle_anchor', message: 'must be now or later' }]);
  }
  const trialEnd = trial_days > 0 ? new Date(Date.parse(at) + trial_days * DAY_MS).toISOString() : null;
  // A trial counts as the first period; the cycle starts at its end unless an anchor pins it.
  const start = trialEnd ?? at;
  const anchor = billing_cycle_anchor ?? start;
  const period = trialEnd ? { start: at, end: trialEnd } : firstPeriod(start, anchor, rest.cadence);
  const created: SubscriptionEvent = {
    type: 'SubscriptionCreated',
    data: { ...rest, status: trialEnd ? 'trialing' : 'active', trial_end: trialEnd, billing_cycle_anchor: anchor, period_start: period.start, period_end: period.end },
  };
  // Without a trial it is active at once, which is an activation of its own (`subscription.activated`).
  if (trialEnd) return [created];
  return [created, { type: 'SubscriptionActivated', data: { subscription_id: rest.subscription_id, period_start: period.start, period_end: period.end } }];
}

/** The period that starts at `start`: up to the anchor when the anchor is later (a stub), else the cycle's period holding `start`. */
function firstPeriod(start: string, anchor: string, cadence: Cadence): Period {
  if (Date.parse(anchor) > Date.parse(start)) return { start, end: anchor };
  const { end } = periodAt(anchor, cadence, start);
  return { start, end };
}

function invalidState(state: Live, target: string, why: string): DomainError {
  return DomainError.conflict('subscription.invalid_state', `Subscription ${state.id} is ${state.status}: ${why} (to ${target})`);
}
