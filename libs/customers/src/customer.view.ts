import { assertNever } from '@tally/kernel';
import type { ResourceView } from '@tally/runtime';
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

export interface CustomerResource {
  [field: string]: unknown;
  id: string;
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
  livemode: boolean;
  created_at: string;
  updated_at: string;
}

/** The customer as the API shows it, folded from its events. */
export const customerView: ResourceView<CustomerResource, CustomerEvent> = {
  aggregateType: 'customer',
  collection: 'customers',

  apply(customer, event) {
    const at = event.metadata.occurred_at;
    if (event.type === 'CustomerCreated') {
      const { customer_id, email, name, billing_address, metadata } = event.data;
      return {
        id: customer_id,
        object: 'customer',
        email,
        name,
        billing_address,
        metadata: { ...metadata },
        default_payment_method_id: null,
        tax_ids: [],
        tax_id_invalid: false,
        test_clock: event.metadata.clock_id ?? null,
        livemode: event.metadata.environment === 'live',
        created_at: at,
        updated_at: at,
      };
    }
    if (!customer) return undefined;
    switch (event.type) {
      case 'CustomerUpdated': {
        const { customer_id: _id, ...changes } = event.data;
        return { ...customer, ...changes, metadata: { ...(changes.metadata ?? customer.metadata) }, updated_at: at };
      }
      case 'CustomerTaxIdAdded': {
        const { tax_id_id, type, value } = event.data;
        const taxId: TaxIdResource = { id: tax_id_id, object: 'tax_id', type, value, country: null, verification: { status: 'pending', reason: null }, created_at: at };
        return { ...customer, tax_ids: [...customer.tax_ids, taxId], updated_at: at };
      }
      case 'CustomerTaxIdVerified':
      case 'CustomerTaxIdInvalidated': {
        const verification =
          event.type === 'CustomerTaxIdVerified' ? { status: 'verified' as const, reason: null } : { status: 'invalid' as const, reason: event.data.reason };
        const country = event.type === 'CustomerTaxIdVerified' ? event.data.country : null;
        const tax_ids = customer.tax_ids.map((t) => (t.id === event.data.tax_id_id ? { ...t, verification, country: country ?? t.country } : t));
        return { ...customer, ...withTaxIds(tax_ids), updated_at: at };
      }
      case 'CustomerTaxIdDeleted':
        return { ...customer, ...withTaxIds(customer.tax_ids.filter((t) => t.id !== event.data.tax_id_id)), updated_at: at };
      case 'CustomerDeleted':
        return undefined;
      case 'CustomerPaymentMethodAttached':
      case 'CustomerPaymentMethodDetached':
        return { ...customer, updated_at: at };
      case 'CustomerDefaultPaymentMethodChanged':
        return { ...customer, default_payment_method_id: event.data.payment_method_id, updated_at: at };
      default:
        return assertNever(event);
    }
  },

  publicTypes: ['customer.created', 'customer.updated', 'customer.deleted', 'customer.payment_method_attached', 'customer.payment_method_detached', 'customer.tax_id_invalidated'],
  publicType(event) {
    switch (event.type) {
      case 'CustomerCreated':
        return 'customer.created';
      case 'CustomerTaxIdInvalidated':
        return 'customer.tax_id_invalidated';
      case 'CustomerDeleted':
        return 'customer.deleted';
      case 'CustomerPaymentMethodAttached':
        return 'customer.payment_method_attached';
      case 'CustomerPaymentMethodDetached':
        return 'customer.payment_method_detached';
      default:
        return 'customer.updated';
    }
  },
};

/** The tax IDs and the flag that follows from them: `tax_id_invalid` while any of them is invalid. */
const withTaxIds = (tax_ids: TaxIdResource[]): Pick<CustomerResource, 'tax_ids' | 'tax_id_invalid'> => ({
  tax_ids,
  tax_id_invalid: tax_ids.some((t) => t.verification.status === 'invalid'),
});
