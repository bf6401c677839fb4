import type { Address, Event, Metadata } from '@tally/kernel';

export type { Address } from '@tally/kernel';

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

/** A payment method of the payments context now belongs to the customer, so it may become the default. */
export type CustomerPaymentMethodAttached = Event<'CustomerPaymentMethodAttached', { customer_id: string; payment_method_id: string }>;

export type CustomerPaymentMethodDetached = Event<'CustomerPaymentMethodDetached', { customer_id: string; payment_method_id: string }>;

/**
 * The default payment method changed (null: none). It names the one it replaces, so that a read model of
 * payment methods can flip both flags without asking anyone. Older logs carry the default inside
 * CustomerUpdated instead.
 */
export type CustomerDefaultPaymentMethodChanged = Event<
  'CustomerDefaultPaymentMethodChanged',
  { customer_id: string; payment_method_id: string | null; previous_payment_method_id: string | null }
>;

export type CustomerEvent =
  | CustomerCreated
  | CustomerUpdated
  | CustomerTaxIdAdded
  | CustomerTaxIdVerified
  | CustomerTaxIdInvalidated
  | CustomerTaxIdDeleted
  | CustomerDeleted
  | CustomerPaymentMethodAttached
  | CustomerPaymentMethodDetached
  | CustomerDefaultPaymentMethodChanged;
