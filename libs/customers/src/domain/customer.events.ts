import type { Event } from '@tally/kernel';
import type { Metadata } from '@tally/kernel';

export interface Address {
  line1: string | null;
  city: string | null;
  region: string | null;
  country: string | null;
  postal_code: string | null;
}

/** Personal data (email, name, address, metadata, tax ID values) is encrypted in the store; see customer.pii.ts. */
export type CustomerCreated = Event<
  'CustomerCreated',
  { customer_id: string; email: string | null; name: string | null; billing_address: Address | null; metadata: Metadata }
>;

/** Carries the new value of each changed field only; an address is the whole address after the change. */
export type CustomerUpdated = Event<
  'CustomerUpdated',
  {
    customer_id: string;
    email?: string | null;
    name?: string | null;
    billing_address?: Address | null;
    metadata?: Metadata;
    default_payment_method_id?: string | null;
  }
>;

export type CustomerTaxIdAdded = Event<'CustomerTaxIdAdded', { customer_id: string; tax_id_id: string; type: string; value: string }>;

export type CustomerTaxIdVerified = Event<'CustomerTaxIdVerified', { customer_id: string; tax_id_id: string; country: string }>;

export type CustomerTaxIdInvalidated = Event<'CustomerTaxIdInvalidated', { customer_id: string; tax_id_id: string; reason: string }>;

/** Holds no personal data: the value stays in the CustomerTaxIdAdded it removes. */
export type CustomerTaxIdDeleted = Event<'CustomerTaxIdDeleted', { customer_id: string; tax_id_id: string }>;

/** The customer is gone (its sandbox test clock was deleted); its id is never used again. */
export type CustomerDeleted = Event<'CustomerDeleted', { customer_id: string }>;

export type CustomerEvent = CustomerCreated | CustomerUpdated | CustomerTaxIdAdded | CustomerTaxIdVerified | CustomerTaxIdInvalidated | CustomerTaxIdDeleted | CustomerDeleted;
