import { checkMetadata, DomainError, keyedObject, mergeMetadata, sameMetadata, type Command, type Decider, type Metadata } from '@tally/kernel';
import { boundary, periodAt, wholePeriodOf, type Cadence, type Period } from './billing-cycle';
import { invoiceBasisOf } from './invoice-basis';
import { prorationItems, unusedTimeCredits, type LicensedCharge } from './prorations';
import type { Commitment, PauseBehavior, PeriodTerms, ProrationBehavior, ProrationItem, SubscriptionCreated, SubscriptionEvent, SubscriptionRefundProcessed, SubscriptionStatus } from './subscription.events';

export const DAY_MS = 86_400_000;
/** Stripe's limit on a trial. */
export const MAX_TRIAL_DAYS = 730;
/** `subscription.trial_will_end` fires this long before the trial ends, as Stripe's does. */
export const TRIAL_WILL_END_NOTICE_MS = 3 * DAY_MS;
/** `subscription.commitment_ending` fires this long before the commitment ends. */
export const COMMITMENT_NOTICE_MS = 30 * DAY_MS;

export interface Subscription {
  status: SubscriptionStatus;
  id: string;
  customerId: string;
  currency: string;
  anchor: string;
  cadence: Cadence;
  period: Period;
  trialEnd: string | null;
  planCode: string;
  /** User-keyed (meter names): an object without a prototype. */
  quantities: Record<string, number>;
  coupons: readonly string[];
  metadata: Metadata;
  defaultPaymentMethodId: string | null;
  commitment: Commitment | null;
  commitmentEnd: string | null;
  /** Changes that take effect at the next period boundary. */
  scheduled: { planCode: string | null; quantities: Record<string, number> };
  /** Paid periods so far: how long a coupon still applies. */
  paidPeriods: number;
  /** Prorations not yet invoiced: they go on the invoice of the next period. */
  pendingProrations: readonly ProrationItem[];
  /** A first period shorter than the cycle's is prorated (false: created with `proration_behavior: none`, billed in full). */
  prorateFirstPeriod: boolean;
  /** Set by a cancellation at period end: why, or null without a reason. */
  scheduledCancellation: { reason: string | null } | null;
  pausedUntil: string | null;
  /** While paused: what the pause does to the invoices issued meanwhile. */
  pauseBehavior: PauseBehavior | null;
  /** The invoice whose failed payment made it past due; paying it makes the subscription active again. */
  pastDueInvoice: string | null;
  /** Created active: `subscription.activated` waits until the first of its invoices is paid. */
  firstPaymentPending: boolean;
}

export type SubscriptionState = { status: 'none' } | Subscription;

/** `at` in every command is "now" on the subscription's clock, given by the handler: the decider reads no clock. */
export type CreateSubscription = Command<
  'CreateSubscription',
  Omit<SubscriptionCreated['data'], 'status' | 'trial_end' | 'billing_cycle_anchor' | 'period_start' | 'period_end' | 'prorate_first_period'> & {
    at: string;
    /** The subscription's own trial, else the plan's; 0 disables it. */
    trial_days: number;
    /** At most one interval after the start (now, or the trial's end), as Stripe's. */
    billing_cycle_anchor: string | null;
    /** How a first period shorter than the cycle's is billed: its share of the whole period (`create_prorations`), or in full (`none`). */
    proration_behavior: Exclude<ProrationBehavior, 'always_invoice'>;
    /** `default_incomplete`: without a trial, start only once the first invoice is paid (Stripe's option); else at once. */
    payment_behavior: PaymentBehavior;
  }
>;

export type PaymentBehavior = 'allow_incomplete' | 'default_incomplete';

/** How long a subscription waits for its first payment before it expires (Stripe's 23 hours). */
export const INCOMPLETE_EXPIRY_MS = 23 * 3_600_000;
export type EndTrial = Command<'EndTrial', { subscription_id: string; at: string }>;
export type WarnTrialEnding = Command<'WarnTrialEnding', { subscription_id: string }>;
/** The timer at the end of a period: `period_end` names the period, so a timer that fires twice renews once. */
export type ClosePeriod = Command<'ClosePeriod', { subscription_id: string; period_end: string }>;
export type WarnCommitmentEnding = Command<'WarnCommitmentEnding', { subscription_id: string; commitment_end: string }>;
/**
 * A change of plan. The handler gives what the new plan is (currency, cadence) and what the
 * licensed components cost for a whole period before and after, priced at the current period's start.
 */
export interface PlanChange {
  plan_code: string;
  currency: string;
  cadence: Cadence;
  proration_behavior: ProrationBehavior;
  before: LicensedCharge[];
  after: LicensedCharge[];
}
/** A PATCH: the plan, metadata (merged) and default payment method, decided together so that all or none apply. */
export type UpdateSubscription = Command<'UpdateSubscription', { subscription_id: string; at: string; plan?: PlanChange; metadata?: Metadata; default_payment_method_id?: string | null }>;
export type ChangeQuantity = Command<
  'ChangeQuantity',
  { subscription_id: string; at: string; meter: string; quantity: number; effective_at: 'now' | 'next_period'; before: LicensedCharge[]; after: LicensedCharge[] }
>;
export type PauseSubscription = Command<'PauseSubscription', { subscription_id: string; at: string; until: string | null; behavior: PauseBehavior }>;
/**
 * A manual resume, or the automatic one at the `until` of the pause it was set for: it does nothing
 * when a manual resume came first, nor to a later pause (its own `until`, or none, decides).
 */
export type ResumeSubscription = Command<'ResumeSubscription', { subscription_id: string; at: string } & ({ automatic: false } | { automatic: true; until: string })>;
/** `charges`: what the licensed components cost for the current period, for the credit of a cancellation `now`. */
export type CancelSubscription = Command<
  'CancelSubscription',
  { subscription_id: string; at: string; when: 'now' | 'period_end'; reason: string | null; charges: LicensedCharge[]; final_invoice?: false }
>;
export type MarkPastDue = Command<'MarkPastDue', { subscription_id: string; invoice_id: string }>;
export type RecordInvoicePaid = Command<'RecordInvoicePaid', { subscription_id: string; invoice_id: string }>;
/** A credit note adjusted the recognition of one of its invoices (see SubscriptionRefundProcessed). */
export type RecordRefundProcessed = Command<'RecordRefundProcessed', SubscriptionRefundProcessed['data']>;
/** The timer of a subscription awaiting its first payment. */
export type ExpireIncomplete = Command<'ExpireIncomplete', { subscription_id: string; at: string }>;

export type SubscriptionCommand =
  | CreateSubscription
  | EndTrial
  | WarnTrialEnding
  | ClosePeriod
  | WarnCommitmentEnding
  | UpdateSubscription
  | ChangeQuantity
  | PauseSubscription
  | ResumeSubscription
  | CancelSubscription
  | MarkPastDue
  | RecordInvoicePaid
  | RecordRefundProcessed
  | ExpireIncomplete;

const notFound = (id: string) => DomainError.notFound('subscription.not_found', `No subscription ${id}`);
/** Final statuses: nothing changes a subscription in them, and it issues no more invoices. */
export const TERMINAL: readonly SubscriptionStatus[] = ['canceled', 'ended', 'incomplete_expired'];
/** Every other status: the subscription may still bill (its list filter, for example). */
export const LIVE: readonly SubscriptionStatus[] = ['pending_activation', 'trialing', 'active', 'past_due', 'paused'];
/** A period was invoiced and paid for (or is being collected): its unused time is worth a credit. */
const PAID: readonly SubscriptionStatus[] = ['active', 'past_due'];

/** The state table: the events each command decides, and how they change the subscription. */
const stateTable: Decider<SubscriptionState, SubscriptionCommand, SubscriptionEvent> = {
  initialState: () => ({ status: 'none' }),

  decide(command, state) {
    if (command.type === 'CreateSubscription') return state.status === 'none' ? create(command.data) : [];
    if (state.status === 'none') throw notFound(command.data.subscription_id);
    const id = state.id;
    switch (command.type) {
      case 'EndTrial': {
        if (state.status !== 'trialing' || state.trialEnd === null) return [];
        if (state.scheduledCancellation) return [canceled(state, state.trialEnd, state.scheduledCancellation.reason, [])];
        return [activated(state, firstPeriod(state.trialEnd, state.anchor, state.cadence))];
      }
      case 'WarnTrialEnding':
        return state.status === 'trialing' && !state.scheduledCancellation ? [{ type: 'SubscriptionTrialWillEnd', data: { subscription_id: id, trial_end: state.trialEnd! } }] : [];
      case 'ClosePeriod':
        return closePeriod(state, command.data.period_end);
      case 'WarnCommitmentEnding': {
        if (TERMINAL.includes(state.status) || state.commitment === null || state.commitmentEnd !== command.data.commitment_end) return [];
        return [{ type: 'SubscriptionCommitmentEnding', data: { subscription_id: id, commitment_end: state.commitmentEnd, renewal: state.commitment.renewal } }];
      }
      case 'UpdateSubscription':
        return update(state, command.data);
      case 'ChangeQuantity':
        return changeQuantity(state, command.data);
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
        if (command.data.automatic) {
          // The timer of an earlier pause, resumed by hand and paused again since, resumes nothing.
          return state.status === 'paused' && state.pausedUntil === command.data.until ? [{ type: 'SubscriptionResumed', data: { subscription_id: id, resumed_at: command.data.at, automatic: true } }] : [];
        }
        if (state.status === 'paused') return [{ type: 'SubscriptionResumed', data: { subscription_id: id, resumed_at: command.data.at, automatic: false } }];
        throw DomainError.conflict('subscription.not_paused', `Subscription ${id} is ${state.status}, not paused`);
      }
      case 'CancelSubscription': {
        const { at, when, reason, charges, final_invoice } = command.data;
        assertLive(state);
        if (when === 'period_end') {
          if (state.scheduledCancellation) return [];
          const cancelAt = state.status === 'trialing' ? state.trialEnd! : state.period.end;
          return [{ type: 'SubscriptionCancellationScheduled', data: { subscription_id: id, cancel_at: cancelAt, reason } }];
        }
        // Unused time is credited only where a period was invoiced: not in a trial, nor in a pause.
        if (final_invoice === false) return [{ type: 'SubscriptionCanceled', data: { subscription_id: id, canceled_at: at, reason, prorations: [], final_invoice } }];
        const credits = PAID.includes(state.status) ? unusedTimeCredits(charges, state.period, at, state.currency) : [];
        return [canceled(state, at, reason, credits)];
      }
      case 'MarkPastDue': {
        if (state.status === 'past_due' || TERMINAL.includes(state.status)) return [];
        if (state.status !== 'active') throw invalidState(state, 'past_due', 'only an active subscription falls past due');
        return [{ type: 'SubscriptionPastDue', data: { subscription_id: id, invoice_id: command.data.invoice_id } }];
      }
      case 'RecordInvoicePaid': {
        // Awaiting its first payment, only its first invoice exists: paying it activates the subscription for the period it billed.
        if (state.status === 'pending_activation') return [activated(state, state.period)];
        // Active since its creation, it is announced once money (or a zero invoice) says so; a failure made it past due instead.
        if (state.status === 'active' && state.firstPaymentPending) return [{ type: 'SubscriptionFirstInvoicePaid', data: { subscription_id: id, invoice_id: command.data.invoice_id } }];
        if (state.status !== 'past_due' || command.data.invoice_id !== state.pastDueInvoice) return [];
        return [{ type: 'SubscriptionRecovered', data: { subscription_id: id, invoice_id: command.data.invoice_id } }];
      }
      case 'RecordRefundProcessed':
        // In any status: a refund often follows a cancellation.
        return [{ type: 'SubscriptionRefundProcessed', data: { ...command.data, subscription_id: id } }];
      case 'ExpireIncomplete':
        return state.status === 'pending_activation' ? [{ type: 'SubscriptionIncompleteExpired', data: { subscription_id: id, expired_at: command.data.at, period_start: state.period.start } }] : [];
    }
  },

  evolve(state, event) {
    if (event.type === 'SubscriptionCreated') return created(event.data);
    if (state.status === 'none') return state;
    switch (event.type) {
      case 'SubscriptionAwaitingPayment':
        return state;
      case 'SubscriptionIncompleteExpired':
        return { ...state, status: 'incomplete_expired' };
      case 'SubscriptionActivated':
      case 'SubscriptionRenewed': {
        const { period_start, period_end, terms, commitment_end } = event.data;
        return {
          ...state,
          status: event.type === 'SubscriptionActivated' ? 'active' : state.status,
          period: { start: period_start, end: period_end },
          planCode: terms.plan_code,
          quantities: keyedObject(Object.entries(terms.quantities)),
          commitmentEnd: commitment_end,
          scheduled: { planCode: null, quantities: keyedObject() },
          paidPeriods: state.paidPeriods + 1,
          pendingProrations: [],
          firstPaymentPending: event.type === 'SubscriptionActivated' ? event.data.first_payment_pending === true : state.firstPaymentPending,
        };
      }
      case 'SubscriptionFirstInvoicePaid':
        return { ...state, firstPaymentPending: false };
      case 'SubscriptionTrialWillEnd':
      case 'SubscriptionCommitmentEnding':
        return state;
      case 'SubscriptionUpdated': {
        const { metadata, default_payment_method_id } = event.data;
        return { ...state, metadata: metadata ?? state.metadata, defaultPaymentMethodId: default_payment_method_id === undefined ? state.defaultPaymentMethodId : default_payment_method_id };
      }
      case 'SubscriptionPlanChanged':
        // A change made now replaces one scheduled for the boundary (`proration_behavior: none`).
        return {
          ...state,
          planCode: event.data.plan_code,
          scheduled: { ...state.scheduled, planCode: null },
          pendingProrations: event.data.invoice_now ? state.pendingProrations : [...state.pendingProrations, ...event.data.prorations],
        };
      case 'SubscriptionPlanChangeScheduled':
        return { ...state, scheduled: { ...state.scheduled, planCode: event.data.plan_code } };
      case 'SubscriptionQuantityChanged':
        return {
          ...state,
          quantities: withQuantity(state.quantities, event.data.meter, event.data.quantity),
          scheduled: { ...state.scheduled, quantities: keyedObject(Object.entries(state.scheduled.quantities).filter(([meter]) => meter !== event.data.meter)) },
          pendingProrations: [...state.pendingProrations, ...event.data.prorations],
        };
      case 'SubscriptionQuantityScheduled':
        return { ...state, scheduled: { ...state.scheduled, quantities: withQuantity(state.scheduled.quantities, event.data.meter, event.data.quantity) } };
      case 'SubscriptionPaused':
        return { ...state, status: 'paused', pausedUntil: event.data.until, pauseBehavior: event.data.behavior };
      case 'SubscriptionResumed':
        return { ...state, status: 'active', pausedUntil: null, pauseBehavior: null };
      case 'SubscriptionCancellationScheduled':
        return { ...state, scheduledCancellation: { reason: event.data.reason } };
      case 'SubscriptionCanceled':
        return { ...state, status: 'canceled', pendingProrations: [] };
      case 'SubscriptionEnded':
        return { ...state, status: 'ended', pendingProrations: [] };
      case 'SubscriptionPastDue':
        return { ...state, status: 'past_due', pastDueInvoice: event.data.invoice_id };
      case 'SubscriptionRefundProcessed':
        return state;
      case 'SubscriptionRecovered':
        // Its recovery is announced as an activation, a first one included.
        return { ...state, status: 'active', pastDueInvoice: null, firstPaymentPending: false };
    }
  },
};

/** The state table, each event that calls for an invoice carrying its basis. */
export const subscriptionDecider: Decider<SubscriptionState, SubscriptionCommand, SubscriptionEvent> = {
  ...stateTable,
  decide: (command, state) => withInvoiceBases(state, stateTable.decide(command, state)),
};

/** Each event that calls for an invoice carries its basis, decided from the state the events before it left. */
function withInvoiceBases(state: SubscriptionState, events: readonly SubscriptionEvent[]): SubscriptionEvent[] {
  let before = state;
  return events.map((event) => {
    const billing = before.status === 'none' ? undefined : invoiceBasisOf(before, event);
    before = stateTable.evolve(before, event);
    return billing ? ({ ...event, data: { ...event.data, billing } } as SubscriptionEvent) : event;
  });
}

function create(data: CreateSubscription['data']): SubscriptionEvent[] {
  const { at, trial_days, billing_cycle_anchor, payment_behavior, proration_behavior, ...rest } = data;
  checkMetadata(rest.metadata);
  if (!Number.isInteger(trial_days) || trial_days < 0 || trial_days > MAX_TRIAL_DAYS) {
    throw DomainError.invalid('subscription.invalid_trial_days', `trial_days is a whole number from 0 to ${MAX_TRIAL_DAYS}`, [{ field: 'trial_days', code: 'subscription.invalid_trial_days', message: `0 to ${MAX_TRIAL_DAYS}` }]);
  }
  if (billing_cycle_anchor !== null && Date.parse(billing_cycle_anchor) < Date.parse(at)) {
    throw DomainError.unprocessable('subscription.invalid_billing_cycle_anchor', 'billing_cycle_anchor must not be in the past', [{ field: 'billing_cycle_anchor', code: 'subscription.invalid_billing_cycle_anchor', message: 'must be now or later' }]);
  }
  const trialEnd = trial_days > 0 ? new Date(Date.parse(at) + trial_days * DAY_MS).toISOString() : null;
  // A trial counts as the first period; the cycle starts at its end unless an anchor pins it.
  const start = trialEnd ?? at;
  const latestAnchor = boundary(start, rest.cadence, 1);
  if (billing_cycle_anchor !== null && Date.parse(billing_cycle_anchor) > Date.parse(latestAnchor)) {
    throw DomainError.unprocessable('subscription.invalid_billing_cycle_anchor', `billing_cycle_anchor must be no later than one period after the ${trialEnd ? "trial's end" : 'start'}, ${latestAnchor}`, [
      { field: 'billing_cycle_anchor', code: 'subscription.invalid_billing_cycle_anchor', message: `at most ${latestAnchor}` },
    ]);
  }
  const anchor = billing_cycle_anchor ?? start;
  const period = trialEnd ? { start: at, end: trialEnd } : firstPeriod(start, anchor, rest.cadence);
  const awaitingPayment = !trialEnd && payment_behavior === 'default_incomplete';
  const status = trialEnd ? 'trialing' : awaitingPayment ? 'pending_activation' : 'active';
  const event: SubscriptionCreated = {
    type: 'SubscriptionCreated',
    data: { ...rest, status, trial_end: trialEnd, billing_cycle_anchor: anchor, period_start: period.start, period_end: period.end, ...(proration_behavior === 'none' && { prorate_first_period: false as const }) },
  };
  if (trialEnd) return [event];
  const subscription = created(event.data);
  if (awaitingPayment) {
    const expires_at = new Date(Date.parse(at) + INCOMPLETE_EXPIRY_MS).toISOString();
    return [event, { type: 'SubscriptionAwaitingPayment', data: { subscription_id: rest.subscription_id, period_start: period.start, period_end: period.end, terms: firstTerms(subscription, period), expires_at } }];
  }
  // Without a trial it is active at once (the state table's answer), but consumers grant access on
  // `subscription.activated`: that waits for the first invoice to be paid.
  return [event, activated(subscription, period, true)];
}

/** The activation of the first paid period: at creation (announced once its first invoice is paid), at a trial's end, or once its invoice is paid. */
function activated(subscription: Subscription, period: { start: string; end: string }, firstPaymentPending = false): SubscriptionEvent {
  return {
    type: 'SubscriptionActivated',
    data: {
      subscription_id: subscription.id,
      period_start: period.start,
      period_end: period.end,
      terms: firstTerms(subscription, period),
      commitment_end: commitmentEnd(subscription.commitment, subscription.anchor, subscription.cadence, period),
      ...(firstPaymentPending && { first_payment_pending: true as const }),
    },
  };
}

/** The terms of the first paid period: a stub (shorter than the cycle's period) is prorated to its whole period, unless created with `proration_behavior: none`. */
export function firstTerms(subscription: Subscription, period: Period): PeriodTerms {
  const whole = subscription.prorateFirstPeriod ? wholePeriodOf(period, subscription.anchor, subscription.cadence) : null;
  return { ...termsOf(subscription, []), ...(whole && { whole_period: whole }) };
}

function created(data: SubscriptionCreated['data']): Subscription {
  return {
    status: data.status,
    id: data.subscription_id,
    customerId: data.customer_id,
    currency: data.currency,
    anchor: data.billing_cycle_anchor,
    cadence: data.cadence,
    period: { start: data.period_start, end: data.period_end },
    trialEnd: data.trial_end,
    planCode: data.plan_code,
    quantities: keyedObject(Object.entries(data.quantities)),
    coupons: data.coupons,
    metadata: data.metadata,
    defaultPaymentMethodId: data.default_payment_method_id,
    commitment: data.commitment,
    commitmentEnd: null,
    scheduled: { planCode: null, quantities: keyedObject() },
    paidPeriods: 0,
    pendingProrations: [],
    prorateFirstPeriod: data.prorate_first_period !== false,
    scheduledCancellation: null,
    pausedUntil: null,
    pauseBehavior: null,
    pastDueInvoice: null,
    firstPaymentPending: false,
  };
}

/**
 * The end of the current period: canceled when a cancellation was scheduled, ended when a
 * commitment without renewal ends (either way the pending prorations go on the final invoice),
 * else renewed into the next period with the scheduled changes applied and the pending
 * prorations on its invoice.
 */
function closePeriod(state: Subscription, periodEnd: string): SubscriptionEvent[] {
  if (TERMINAL.includes(state.status) || state.status === 'trialing' || state.status === 'pending_activation' || periodEnd !== state.period.end) return [];
  if (state.scheduledCancellation) return [canceled(state, state.period.end, state.scheduledCancellation.reason, [])];
  const commitmentEnds = state.commitment !== null && state.commitmentEnd === state.period.end;
  if (commitmentEnds && state.commitment!.renewal === 'none') return [{ type: 'SubscriptionEnded', data: { subscription_id: state.id, ended_at: state.period.end, prorations: [...state.pendingProrations] } }];
  const next = periodAt(state.anchor, state.cadence, state.period.end);
  const renewedCommitment = commitmentEnds ? commitmentEnd(state.commitment, state.anchor, state.cadence, next) : state.commitmentEnd;
  const terms: PeriodTerms = {
    ...termsOf(state, state.pendingProrations),
    plan_code: state.scheduled.planCode ?? state.planCode,
    quantities: keyedObject([...Object.entries(state.quantities), ...Object.entries(state.scheduled.quantities)]),
  };
  return [{ type: 'SubscriptionRenewed', data: { subscription_id: state.id, period_start: next.start, period_end: next.end, terms, commitment_end: renewedCommitment } }];
}

function update(state: Subscription, data: UpdateSubscription['data']): SubscriptionEvent[] {
  assertLive(state);
  const planChange = data.plan ? changePlan(state, data.at, data.plan) : [];
  const metadata = data.metadata === undefined ? undefined : mergeMetadata(state.metadata, data.metadata);
  if (metadata !== undefined) checkMetadata(metadata);
  const changes: { metadata?: Metadata; default_payment_method_id?: string | null } = {};
  const previous: typeof changes = {};
  if (metadata !== undefined && !sameMetadata(metadata, state.metadata)) {
    changes.metadata = metadata;
    previous.metadata = state.metadata;
  }
  if (data.default_payment_method_id !== undefined && data.default_payment_method_id !== state.defaultPaymentMethodId) {
    changes.default_payment_method_id = data.default_payment_method_id;
    previous.default_payment_method_id = state.defaultPaymentMethodId;
  }
  if (Object.keys(changes).length === 0) return planChange;
  return [...planChange, { type: 'SubscriptionUpdated', data: { subscription_id: state.id, ...changes, previous_attributes: previous } }];
}

function changePlan(state: Subscription, at: string, change: PlanChange): SubscriptionEvent[] {
  const { plan_code, currency, cadence, proration_behavior, before, after } = change;
  if (currency !== state.currency) {
    throw DomainError.conflict('subscription.plan_currency_mismatch', `Plan ${plan_code} bills in ${currency}; the subscription bills in ${state.currency}. Cancel it and subscribe to the new plan instead`);
  }
  if (cadence.interval !== state.cadence.interval || cadence.count !== state.cadence.count) {
    throw DomainError.conflict('subscription.plan_interval_mismatch', `Plan ${plan_code} renews every ${cadence.count} ${cadence.interval}; the subscription every ${state.cadence.count} ${state.cadence.interval}`);
  }
  if (plan_code === state.planCode && state.scheduled.planCode === null) return [];
  if (proration_behavior === 'none') {
    return [{ type: 'SubscriptionPlanChangeScheduled', data: { subscription_id: state.id, plan_code, effective_at: state.period.end } }];
  }
  const prorations = PAID.includes(state.status) ? prorationItems(before, after, state.period, at, state.currency) : [];
  return [
    {
      type: 'SubscriptionPlanChanged',
      data: { subscription_id: state.id, plan_code, previous_plan_code: state.planCode, changed_at: at, prorations, invoice_now: proration_behavior === 'always_invoice' && prorations.length > 0 },
    },
  ];
}

function changeQuantity(state: Subscription, data: ChangeQuantity['data']): SubscriptionEvent[] {
  assertLive(state);
  const { at, meter, quantity, effective_at, before, after } = data;
  if (!Number.isSafeInteger(quantity) || quantity < 0) {
    throw DomainError.invalid('subscription.invalid_quantity', 'A quantity is a whole number, 0 or more', [{ field: 'quantity', code: 'subscription.invalid_quantity', message: 'a whole number, 0 or more' }]);
  }
  if (effective_at === 'next_period') {
    return [{ type: 'SubscriptionQuantityScheduled', data: { subscription_id: state.id, meter, quantity, effective_at: state.period.end } }];
  }
  const previous = Object.hasOwn(state.quantities, meter) ? state.quantities[meter] : null;
  // The same quantity again changes nothing, unless it replaces another one scheduled for the boundary.
  if (previous === quantity && !Object.hasOwn(state.scheduled.quantities, meter)) return [];
  const prorations = PAID.includes(state.status) ? prorationItems(before, after, state.period, at, state.currency) : [];
  return [{ type: 'SubscriptionQuantityChanged', data: { subscription_id: state.id, meter, quantity, previous_quantity: previous, changed_at: at, prorations } }];
}

function termsOf(state: Subscription, prorations: readonly ProrationItem[]): PeriodTerms {
  return { plan_code: state.planCode, quantities: keyedObject(Object.entries(state.quantities)), coupons: [...state.coupons], prorations: [...prorations] };
}

/** Canceled with a final invoice: it bills the prorations still pending, then `credits` (a cancellation `now`'s unused time). */
function canceled(state: Subscription, at: string, reason: string | null, credits: ProrationItem[]): SubscriptionEvent {
  return { type: 'SubscriptionCanceled', data: { subscription_id: state.id, canceled_at: at, reason, prorations: [...state.pendingProrations, ...credits] } };
}

/** The period that starts at `start`: up to the anchor when the anchor is later (a stub), else the cycle's period holding `start`. */
export function firstPeriod(start: string, anchor: string, cadence: Cadence): Period {
  if (Date.parse(anchor) > Date.parse(start)) return { start, end: anchor };
  const { end } = periodAt(anchor, cadence, start);
  return { start, end };
}

/** A commitment of n periods from the start of `from`: the n-th boundary of the cycle after it (a stub counts as one). */
function commitmentEnd(commitment: Commitment | null, anchor: string, cadence: Cadence, from: Period): string | null {
  if (commitment === null) return null;
  const first = Date.parse(from.start) < Date.parse(anchor) ? -1 : periodAt(anchor, cadence, from.start).index;
  return boundary(anchor, cadence, first + commitment.periods);
}

function assertLive(state: Subscription): void {
  if (TERMINAL.includes(state.status)) throw DomainError.conflict('subscription.already_canceled', `Subscription ${state.id} is ${state.status}; it cannot change`);
}

function invalidState(state: Subscription, target: string, why: string): DomainError {
  return DomainError.conflict('subscription.invalid_state', `Subscription ${state.id} is ${state.status}: ${why} (to ${target})`);
}

const withQuantity = (quantities: Record<string, number>, meter: string, quantity: number): Record<string, number> => keyedObject([...Object.entries(quantities), [meter, quantity]]);
