import type { Period } from '../domain/billing-cycle';
import type { BillingReason, Collection, InvoiceBasis, PeriodTerms, ProrationItem, SubscriptionEvent } from '../domain/subscription.events';

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

/** A subscription event as stored, with its id (an immediate proration's invoice is keyed by it). */
export type StoredSubscriptionEvent = SubscriptionEvent & { id: string };

/**
 * The invoice a subscription event asks for, from the event and its basis: a period's licensed
 * charges at its terms (with the prorations they carry), or an immediate proration's or a final
 * invoice's prorations alone; usage as the basis says.
 */
export function invoiceRequestOf(event: StoredSubscriptionEvent, basis: InvoiceBasis): InvoiceRequest | undefined {
  const key = invoiceKeyOf(event);
  if (key === undefined) return undefined;
  const { usage, ...rest } = basis;
  const request = (licensed: InvoiceRequest['licensed'], prorations: readonly ProrationItem[]): InvoiceRequest => ({ subscription_id: event.data.subscription_id, key, licensed, prorations: [...prorations], usage, ...rest });
  switch (event.type) {
    case 'SubscriptionAwaitingPayment':
    case 'SubscriptionActivated':
    case 'SubscriptionRenewed': {
      const { period_start, period_end, terms } = event.data;
      return request(licensedOf(terms, { start: period_start, end: period_end }), terms.prorations);
    }
    case 'SubscriptionPlanChanged':
    case 'SubscriptionCanceled':
      return request(null, event.data.prorations);
    case 'SubscriptionEnded':
      return request(null, event.data.prorations ?? []);
    default:
      return undefined;
  }
}

/**
 * The key of the invoice an event called for, if it called for one: a period's (its start), an
 * immediate proration's (the change and its event: two changes at one instant of a frozen test
 * clock are two invoices) or a final one (the end).
 */
export function invoiceKeyOf(event: StoredSubscriptionEvent): string | undefined {
  if (!('billing' in event.data) || event.data.billing === undefined) return undefined;
  switch (event.type) {
    case 'SubscriptionAwaitingPayment':
    case 'SubscriptionActivated':
    case 'SubscriptionRenewed':
      return `period:${event.data.period_start}`;
    case 'SubscriptionPlanChanged':
      return `proration:${event.data.changed_at}:${event.id}`;
    case 'SubscriptionCanceled':
      return `final:${event.data.canceled_at}`;
    case 'SubscriptionEnded':
      return `final:${event.data.ended_at}`;
    default:
      return undefined;
  }
}

/** The licensed part of a period's invoice at its terms: a stub's with the whole period it is prorated to. */
function licensedOf(terms: PeriodTerms, period: Period): InvoiceRequest['licensed'] {
  return { plan_code: terms.plan_code, quantities: terms.quantities, period, ...(terms.whole_period && { whole_period: terms.whole_period }) };
}
