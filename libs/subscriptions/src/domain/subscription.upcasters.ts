import type { Upcaster } from '@tally/kernel';
import { BASIS_FROM_HISTORY, type SubscriptionEvent } from './subscription.events';

type Widened = Extract<SubscriptionEvent, { data: { billing?: unknown } }>;

/** Whether an event of version 1 may have called for an invoice (those that cannot stay without a basis). */
const MAY_CALL_FOR_AN_INVOICE: { [T in Widened['type']]: (data: Omit<Extract<Widened, { type: T }>['data'], 'billing'>) => boolean } = {
  SubscriptionAwaitingPayment: () => true,
  SubscriptionActivated: () => true,
  SubscriptionRenewed: () => true,
  SubscriptionPlanChanged: (data) => data.invoice_now,
  SubscriptionCanceled: (data) => data.final_invoice !== false,
  SubscriptionEnded: () => true,
};

/**
 * Version 2 of the events that call for an invoice carries the invoice's basis (`billing`), which
 * version 1 left to the process that followed them. A version-1 event reads with its basis to be
 * found in the subscription's history up to it.
 */
export const subscriptionUpcasters: Upcaster[] = Object.entries(MAY_CALL_FOR_AN_INVOICE).map(([eventType, mayCall]) => ({
  eventType,
  fromVersion: 1,
  upcast: (data: never) => (mayCall(data) ? { ...(data as object), billing: BASIS_FROM_HISTORY } : data),
}));
