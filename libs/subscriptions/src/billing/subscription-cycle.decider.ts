import type { ProcessDecider, ProcessInput, TimerFired, CommandRejected } from '@tally/kernel';
import type { Period } from '../domain/billing-cycle';
import type { PauseBehavior, PeriodTerms, ProrationItem, SubscriptionEvent } from '../domain/subscription.events';

/** The subscription's events the cycle follows, as they were stored, with when they occurred; and its invoices' payment. */
export type CycleInput =
  | ProcessInput<SubscriptionEvent['type'], SubscriptionEvent['data'] & { occurred_at: string }>
  | ProcessInput<'InvoicePaid' | 'InvoicePaymentFailed', { invoice_id: string; subscription_id: string; occurred_at: string }>;

export type BillingReason = 'subscription_create' | 'subscription_cycle' | 'subscription_update' | 'subscription_cancel';

/** How the invoice of a period is collected: charged as usual, or as a pause's `behavior` says. */
export type Collection = 'charge' | PauseBehavior;

/**
 * One invoice of the subscription: the licensed components of a period billed in advance, the
 * usage of a closed period billed in arrears, and prorations. `key` names it among the
 * subscription's invoices (its id derives from it), so an invoice is issued once however often
 * the command is sent.
 */
export interface InvoiceRequest {
  subscription_id: string;
  customer_id: string;
  key: string;
  billing_reason: BillingReason;
  /** The subscription's plan: its currency and tax behaviour are the invoice's. */
  plan_code: string;
  /** `whole_period`: the period is a first, shorter one, charged the remaining time of that whole period (see PeriodTerms). */
  licensed: { plan_code: string; quantities: Record<string, number>; period: Period; whole_period?: Period } | null;
  usage: { plan_code: string; period: Period } | null;
  prorations: ProrationItem[];
  coupons: string[];
  /** The paid period the invoice belongs to, from 1: how long a coupon still applies. */
  period_number: number;
  collection: Collection;
}

/** A step of the subscription's state table that an invoice's payment triggers (its timers are the subscription's own). */
export type LifecycleStep = { type: 'RecordInvoicePaid'; data: { invoice_id: string } } | { type: 'MarkPastDue'; data: { invoice_id: string } };

export type CycleCommand =
  | { type: 'AdvanceSubscription'; data: { subscription_id: string; step: LifecycleStep } }
  | { type: 'IssueInvoice'; data: InvoiceRequest }
  | { type: 'ApplyPauseToOpenInvoices'; data: { subscription_id: string; behavior: 'void_invoices' | 'mark_uncollectible'; current_invoice_key: string } };

type Output = { kind: 'command'; command: CycleCommand };

export interface CycleState {
  subscriptionId: string | null;
  customerId: string | null;
  trial: boolean;
  /** The current period and the terms it was billed at. */
  period: Period | null;
  terms: PeriodTerms | null;
  periodNumber: number;
  commitmentEnd: string | null;
  pause: PauseBehavior | null;
}

const advance = (subscriptionId: string, step: LifecycleStep): Output => ({ kind: 'command', command: { type: 'AdvanceSubscription', data: { subscription_id: subscriptionId, step } } });

/**
 * A subscription's cycle, one process per subscription: as each period starts or the
 * subscription ends, it asks for the invoice it closes with. The timers of the state table are
 * the subscription's own (see subscriptionTimers); a timer this process set before fires nothing.
 */
export const subscriptionCycleDecider: ProcessDecider<CycleState, CycleInput | TimerFired | CommandRejected, Output> = {
  initialState: () => ({ subscriptionId: null, customerId: null, trial: false, period: null, terms: null, periodNumber: 0, commitmentEnd: null, pause: null }),

  evolve(state, message) {
    if (message.kind !== 'input') return state;
    const { input } = message;
    const data = input.data as Record<string, unknown>;
    switch (input.type) {
      case 'SubscriptionCreated':
        return { ...state, subscriptionId: data.subscription_id as string, customerId: data.customer_id as string, trial: data.status === 'trialing' };
      case 'SubscriptionActivated':
      case 'SubscriptionRenewed':
        return {
          ...state,
          period: { start: data.period_start as string, end: data.period_end as string },
          terms: data.terms as PeriodTerms,
          periodNumber: state.periodNumber + 1,
          commitmentEnd: data.commitment_end as string | null,
        };
      case 'SubscriptionPaused':
        return { ...state, pause: data.behavior as PauseBehavior };
      case 'SubscriptionResumed':
        return { ...state, pause: null };
      case 'SubscriptionPlanChanged':
        return state.terms ? { ...state, terms: { ...state.terms, plan_code: data.plan_code as string } } : state;
      default:
        return state;
    }
  },

  decide(input, state) {
    if (input.type === 'TimerFired' || input.type === 'CommandRejected') return [];
    // A past-due subscription is active again once the invoice that made it so is paid; the subscription knows which.
    if (input.type === 'InvoicePaid') return [advance(input.data.subscription_id, { type: 'RecordInvoicePaid', data: { invoice_id: input.data.invoice_id } })];
    // A failed payment of one of its invoices makes an active subscription past due (dunning then retries it).
    if (input.type === 'InvoicePaymentFailed') return [advance(input.data.subscription_id, { type: 'MarkPastDue', data: { invoice_id: input.data.invoice_id } })];
    const event = { type: input.type, data: input.data } as SubscriptionEvent;
    const at = input.data.occurred_at;
    switch (event.type) {
      case 'SubscriptionAwaitingPayment': {
        // The first period's invoice now.
        const { subscription_id, period_start, period_end, terms } = event.data;
        const invoice: InvoiceRequest = {
          subscription_id,
          customer_id: state.customerId!,
          key: `period:${period_start}`,
          billing_reason: 'subscription_create',
          plan_code: terms.plan_code,
          licensed: licensedOf(terms, { start: period_start, end: period_end }),
          usage: null,
          prorations: terms.prorations,
          coupons: terms.coupons,
          period_number: 1,
          collection: 'charge',
        };
        return [{ kind: 'command', command: { type: 'IssueInvoice', data: invoice } }];
      }
      case 'SubscriptionIncompleteExpired':
        // The unpaid first invoice is voided, as Stripe voids the invoice of an expired incomplete subscription.
        return [
          {
            kind: 'command',
            command: { type: 'ApplyPauseToOpenInvoices', data: { subscription_id: event.data.subscription_id, behavior: 'void_invoices', current_invoice_key: `period:${event.data.period_start}` } },
          },
        ];
      case 'SubscriptionActivated':
      case 'SubscriptionRenewed': {
        const { subscription_id, period_start, period_end, terms } = event.data;
        const renewal = event.type === 'SubscriptionRenewed';
        const invoice: InvoiceRequest = {
          subscription_id,
          customer_id: state.customerId!,
          key: `period:${period_start}`,
          billing_reason: renewal || state.trial ? 'subscription_cycle' : 'subscription_create',
          plan_code: terms.plan_code,
          licensed: licensedOf(terms, { start: period_start, end: period_end }),
          usage: renewal && state.period && state.terms ? { plan_code: state.terms.plan_code, period: state.period } : null,
          prorations: terms.prorations,
          coupons: terms.coupons,
          period_number: state.periodNumber + 1,
          collection: state.pause ?? 'charge',
        };
        return [{ kind: 'command', command: { type: 'IssueInvoice', data: invoice } }];
      }
      case 'SubscriptionPaused': {
        const { subscription_id, behavior } = event.data;
        // Open invoices follow the pause's behaviour too; `keep_as_draft` leaves them be.
        if (behavior === 'keep_as_draft' || !state.period) return [];
        return [{ kind: 'command', command: { type: 'ApplyPauseToOpenInvoices', data: { subscription_id, behavior, current_invoice_key: `period:${state.period.start}` } } }];
      }
      case 'SubscriptionPlanChanged': {
        if (!event.data.invoice_now || !state.period || !state.terms) return [];
        // Keyed by the change's event too: two changes at one instant (a frozen test clock) are two invoices.
        return [issue(state, `proration:${event.data.changed_at}:${input.id}`, 'subscription_update', null, event.data.prorations)];
      }
      case 'SubscriptionCanceled':
        if (event.data.final_invoice === false) return [];
        return state.period ? [issue(state, `final:${event.data.canceled_at}`, 'subscription_cancel', { start: state.period.start, end: event.data.canceled_at }, event.data.prorations)] : [];
      case 'SubscriptionEnded':
        return state.period ? [issue(state, `final:${event.data.ended_at}`, 'subscription_cycle', { start: state.period.start, end: event.data.ended_at }, event.data.prorations ?? [])] : [];
      default:
        return [];
    }
  },
};

/** The licensed part of a period's invoice at its terms: a stub's with the whole period it is prorated to. */
function licensedOf(terms: PeriodTerms, period: Period): InvoiceRequest['licensed'] {
  return { plan_code: terms.plan_code, quantities: terms.quantities, period, ...(terms.whole_period && { whole_period: terms.whole_period }) };
}

/** An invoice of usage up to `usageUntil` (the period's end, or a cancellation) and of prorations, without licensed charges. */
function issue(state: CycleState, key: string, reason: BillingReason, usagePeriod: Period | null, prorations: ProrationItem[]): Output {
  return {
    kind: 'command',
    command: {
      type: 'IssueInvoice',
      data: {
        subscription_id: state.subscriptionId!,
        customer_id: state.customerId!,
        key,
        billing_reason: reason,
        plan_code: state.terms!.plan_code,
        licensed: null,
        usage: usagePeriod && Date.parse(usagePeriod.end) > Date.parse(usagePeriod.start) ? { plan_code: state.terms!.plan_code, period: usagePeriod } : null,
        prorations,
        coupons: state.terms!.coupons,
        period_number: state.periodNumber,
        collection: state.pause ?? 'charge',
      },
    },
  };
}
