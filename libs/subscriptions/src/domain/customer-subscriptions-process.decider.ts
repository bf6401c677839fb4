import { oneCommandProcess, type ProcessInput } from '@tally/kernel';

export type CustomerDeleted = ProcessInput<'CustomerDeleted', { customer_id: string }>;

/** Cancels every subscription of the deleted customer that may still bill (the dispatch reads them from the customer's subscription index). */
export type CancelCustomerSubscriptions = { type: 'CancelCustomerSubscriptions'; data: { customer_id: string } };

/** A deleted customer's subscriptions are canceled at once, as Stripe's are: one command per deleted customer. */
export const customerSubscriptionsProcessDecider = oneCommandProcess((deleted: CustomerDeleted): CancelCustomerSubscriptions => ({ type: 'CancelCustomerSubscriptions', data: deleted.data }));
