import { defineView, type StampedResource } from '@tally/runtime';
import type { Address, CustomerEvent } from './domain/customer.events';
import type { TaxIdStatus } from './domain/customer.decider';

/** A type rather than an interface, so that it is a read-store document (`Doc`) for paging. */
export type TaxIdResource = {
  id: string;
  object: 'tax_id';
  type: string;
  value: string;
  country: string | null;
  verification: { status: TaxIdStatus; reason: string | null };
  created_at: string;
};

export interface CustomerResource extends StampedResource {
  object: 'customer';
  email: string | null;
  name: string | null;
  billing_address: Address | null;
  metadata: Record<string, string>;
  default_payment_method_id: string | null;
  tax_ids: TaxIdResource[];
  tax_id_invalid: boolean;
  /** The sandbox test clock the customer lives on, whose time is "now" for everything of the customer. */
  test_clock: string | null;
}

/** The customer as the API shows it, folded from its events. */
export const customerView = defineView<CustomerResource, CustomerEvent, 'CustomerCreated'>({
  object: 'customer',
  created: {
    type: 'CustomerCreated',
    fields: ({ email, name, billing_address, metadata }, event) => ({
      email,
      name,
      billing_address,
      metadata,
      default_payment_method_id: null,
      tax_ids: [],
      tax_id_invalid: false,
      test_clock: event.metadata.clock_id ?? null,
    }),
  },
  changes: {
    CustomerUpdated: (customer, { customer_id: _id, ...changes }) => ({ ...changes, metadata: changes.metadata ?? customer.metadata }),
    CustomerTaxIdAdded: (customer, { tax_id_id, type, value }, event) => {
      const taxId: TaxIdResource = { id: tax_id_id, object: 'tax_id', type, value, country: null, verification: { status: 'pending', reason: null }, created_at: event.metadata.occurred_at };
      return { tax_ids: [...customer.tax_ids, taxId] };
    },
    CustomerTaxIdVerified: (customer, { tax_id_id, country }) => withTaxIds(customer.tax_ids.map((t) => (t.id === tax_id_id ? { ...t, verification: { status: 'verified', reason: null }, country: country ?? t.country } : t))),
    CustomerTaxIdInvalidated: (customer, { tax_id_id, reason }) => withTaxIds(customer.tax_ids.map((t) => (t.id === tax_id_id ? { ...t, verification: { status: 'invalid', reason } } : t))),
    CustomerTaxIdDeleted: (customer, { tax_id_id }) => withTaxIds(customer.tax_ids.filter((t) => t.id !== tax_id_id)),
    CustomerDeleted: 'deleted',
    CustomerPaymentMethodAttached: () => ({}),
    CustomerPaymentMethodDetached: () => ({}),
    CustomerDefaultPaymentMethodChanged: (_customer, { payment_method_id }) => ({ default_payment_method_id: payment_method_id }),
  },
  publicTypes: {
    CustomerCreated: 'customer.created',
    CustomerUpdated: 'customer.updated',
    CustomerTaxIdAdded: 'customer.updated',
    CustomerTaxIdVerified: 'customer.updated',
    CustomerTaxIdInvalidated: 'customer.tax_id_invalidated',
    CustomerTaxIdDeleted: 'customer.updated',
    CustomerDeleted: 'customer.deleted',
    CustomerPaymentMethodAttached: 'customer.payment_method_attached',
    CustomerPaymentMethodDetached: 'customer.payment_method_detached',
    CustomerDefaultPaymentMethodChanged: 'customer.updated',
  },
});

/** The tax IDs and the flag that follows from them: `tax_id_invalid` while any of them is invalid. */
const withTaxIds = (tax_ids: TaxIdResource[]): Pick<CustomerResource, 'tax_ids' | 'tax_id_invalid'> => ({
  tax_ids,
  tax_id_invalid: tax_ids.some((t) => t.verification.status === 'invalid'),
});
