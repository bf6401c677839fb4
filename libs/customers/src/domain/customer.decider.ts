import { assertNever, checkMetadata, DomainError, mergeAddress, mergeMetadata, sameMetadata, type AddressPatch, type Command, type Decider, type Metadata } from '@tally/kernel';
import type {
  Address,
  CustomerCreated,
  CustomerDeleted,
  CustomerEvent,
  CustomerPaymentMethodDetached,
  CustomerTaxIdAdded,
  CustomerTaxIdDeleted,
  CustomerUpdated,
} from './customer.events';
import { isSupportedTaxIdType } from './tax-ids/tax-id';

export type TaxIdStatus = 'pending' | 'verified' | 'invalid';

export type CustomerState =
  | { status: 'none' }
  | { status: 'deleted'; id: string }
  | {
      status: 'active';
      id: string;
      email: string | null;
      name: string | null;
      billingAddress: Address | null;
      metadata: Metadata;
      defaultPaymentMethodId: string | null;
      /** The payment methods attached to the customer: the default must be one of them. */
      paymentMethodIds: readonly string[];
      taxIds: readonly { id: string; type: string; value: string; status: TaxIdStatus }[];
    };

export type CreateCustomer = Command<'CreateCustomer', CustomerCreated['data']>;
/**
 * Like the event it may lead to, but `metadata` and `billing_address` are patches. Metadata: keys
 * replace old values, an empty string removes a key. Address: fields left out keep their value,
 * null clears one, and a null address removes the whole address.
 */
export type UpdateCustomer = Command<'UpdateCustomer', Omit<CustomerUpdated['data'], 'billing_address'> & { billing_address?: AddressPatch | null }>;
export type AddTaxId = Command<'AddTaxId', CustomerTaxIdAdded['data']>;
export type RecordTaxIdValidation = Command<
  'RecordTaxIdValidation',
  { customer_id: string; tax_id_id: string; result: { valid: true; country: string } | { valid: false; reason: string } }
>;

export type DeleteTaxId = Command<'DeleteTaxId', CustomerTaxIdDeleted['data']>;

/** Deletes a sandbox customer whose test clock was deleted (Stripe deletes them with the clock). */
export type DeleteCustomer = Command<'DeleteCustomer', CustomerDeleted['data']>;

/** Sent by the payments context once it has attached a method to the customer. */
export type RecordPaymentMethodAttached = Command<'RecordPaymentMethodAttached', { customer_id: string; payment_method_id: string; set_as_default: boolean }>;
export type RecordPaymentMethodDetached = Command<'RecordPaymentMethodDetached', CustomerPaymentMethodDetached['data']>;

export type CustomerCommand =
  | CreateCustomer
  | UpdateCustomer
  | AddTaxId
  | RecordTaxIdValidation
  | DeleteTaxId
  | DeleteCustomer
  | RecordPaymentMethodAttached
  | RecordPaymentMethodDetached;

const notFound = (id: string) => DomainError.notFound('customer.not_found', `No customer ${id}`);
const taxIdNotFound = (id: string) => DomainError.notFound('tax_id.not_found', `No tax ID ${id}`);
/** A default payment method (the customer's, or a subscription's own) must be one the customer has attached. */
export function assertAttachedPaymentMethod(state: CustomerState, paymentMethodId: string | null | undefined): void {
  if (!paymentMethodId || (state.status === 'active' && state.paymentMethodIds.includes(paymentMethodId))) return;
  throw DomainError.unprocessable('customer.payment_method_not_attached', `Payment method ${paymentMethodId} is not attached to this customer`, [
    { field: 'default_payment_method_id', code: 'customer.payment_method_not_attached', message: 'attach the payment method to the customer first' },
  ]);
}

const defaultChanged = (state: Extract<CustomerState, { status: 'active' }>, paymentMethodId: string | null): CustomerEvent => ({
  type: 'CustomerDefaultPaymentMethodChanged',
  data: { customer_id: state.id, payment_method_id: paymentMethodId, previous_payment_method_id: state.defaultPaymentMethodId },
});

export const customerDecider: Decider<CustomerState, CustomerCommand, CustomerEvent> = {
  initialState: () => ({ status: 'none' }),

  decide(command, state) {
    switch (command.type) {
      case 'CreateCustomer': {
        if (state.status !== 'none') return [];
        checkMetadata(command.data.metadata);
        return [{ type: 'CustomerCreated', data: command.data }];
      }
      case 'UpdateCustomer': {
        if (state.status !== 'active') throw notFound(command.data.customer_id);
        const { default_payment_method_id: defaultId, ...changes } = changedFields(state, command.data);
        if (changes.metadata) checkMetadata(changes.metadata);
        assertAttachedPaymentMethod(state, defaultId);
        return [
          ...(Object.keys(changes).length > 0 ? [{ type: 'CustomerUpdated' as const, data: { customer_id: state.id, ...changes } }] : []),
          ...(defaultId !== undefined ? [defaultChanged(state, defaultId)] : []),
        ];
      }
      case 'RecordPaymentMethodAttached': {
        if (state.status !== 'active') throw notFound(command.data.customer_id);
        const { payment_method_id, set_as_default } = command.data;
        if (state.paymentMethodIds.includes(payment_method_id)) return [];
        return [
          { type: 'CustomerPaymentMethodAttached', data: { customer_id: state.id, payment_method_id } },
          ...(set_as_default && state.defaultPaymentMethodId !== payment_method_id ? [defaultChanged(state, payment_method_id)] : []),
        ];
      }
      case 'RecordPaymentMethodDetached': {
        if (state.status !== 'active') return [];
        const { payment_method_id } = command.data;
        if (!state.paymentMethodIds.includes(payment_method_id)) return [];
        return [
          { type: 'CustomerPaymentMethodDetached', data: { customer_id: state.id, payment_method_id } },
          ...(state.defaultPaymentMethodId === payment_method_id ? [defaultChanged(state, null)] : []),
        ];
      }
      case 'AddTaxId': {
        if (state.status !== 'active') throw notFound(command.data.customer_id);
        const { tax_id_id, type, value } = command.data;
        if (!isSupportedTaxIdType(type)) {
          throw DomainError.invalid('tax_id.unsupported_type', `Tax ID type ${type} is not supported`, [
            { field: 'type', code: 'tax_id.unsupported_type', message: 'supported: eu_vat' },
          ]);
        }
        if (state.taxIds.some((t) => t.id === tax_id_id)) return [];
        if (state.taxIds.some((t) => t.type === type && t.value === value)) {
          throw DomainError.conflict('tax_id.already_exists', `The customer already has the ${type} ID ${value}`);
        }
        return [{ type: 'CustomerTaxIdAdded', data: { customer_id: state.id, tax_id_id, type, value } }];
      }
      case 'RecordTaxIdValidation': {
        if (state.status !== 'active') throw notFound(command.data.customer_id);
        const taxId = state.taxIds.find((t) => t.id === command.data.tax_id_id);
        if (!taxId) throw taxIdNotFound(command.data.tax_id_id);
        if (taxId.status !== 'pending') return [];
        const { result } = command.data;
        return result.valid
          ? [{ type: 'CustomerTaxIdVerified', data: { customer_id: state.id, tax_id_id: taxId.id, country: result.country } }]
          : [{ type: 'CustomerTaxIdInvalidated', data: { customer_id: state.id, tax_id_id: taxId.id, reason: result.reason } }];
      }
      case 'DeleteTaxId': {
        if (state.status !== 'active') throw notFound(command.data.customer_id);
        const { tax_id_id } = command.data;
        if (!state.taxIds.some((t) => t.id === tax_id_id)) throw taxIdNotFound(tax_id_id);
        return [{ type: 'CustomerTaxIdDeleted', data: { customer_id: state.id, tax_id_id } }];
      }
      case 'DeleteCustomer':
        if (state.status === 'none') throw notFound(command.data.customer_id);
        return state.status === 'active' ? [{ type: 'CustomerDeleted', data: { customer_id: state.id } }] : [];
      default:
        return assertNever(command);
    }
  },

  evolve(state, event) {
    switch (event.type) {
      case 'CustomerCreated': {
        const { customer_id, email, name, billing_address, metadata } = event.data;
        return { status: 'active', id: customer_id, email, name, billingAddress: billing_address, metadata, defaultPaymentMethodId: null, paymentMethodIds: [], taxIds: [] };
      }
      case 'CustomerUpdated': {
        if (state.status !== 'active') return state;
        const { email, name, billing_address, metadata, default_payment_method_id } = event.data;
        return {
          ...state,
          ...(email !== undefined && { email }),
          ...(name !== undefined && { name }),
          ...(billing_address !== undefined && { billingAddress: billing_address }),
          ...(metadata !== undefined && { metadata }),
          ...(default_payment_method_id !== undefined && { defaultPaymentMethodId: default_payment_method_id }),
        };
      }
      case 'CustomerTaxIdAdded': {
        if (state.status !== 'active') return state;
        const { tax_id_id, type, value } = event.data;
        return { ...state, taxIds: [...state.taxIds, { id: tax_id_id, type, value, status: 'pending' }] };
      }
      case 'CustomerTaxIdVerified':
      case 'CustomerTaxIdInvalidated': {
        if (state.status !== 'active') return state;
        const status: TaxIdStatus = event.type === 'CustomerTaxIdVerified' ? 'verified' : 'invalid';
        return { ...state, taxIds: state.taxIds.map((t) => (t.id === event.data.tax_id_id ? { ...t, status } : t)) };
      }
      case 'CustomerTaxIdDeleted': {
        if (state.status !== 'active') return state;
        return { ...state, taxIds: state.taxIds.filter((t) => t.id !== event.data.tax_id_id) };
      }
      case 'CustomerDeleted':
        return { status: 'deleted', id: event.data.customer_id };
      case 'CustomerPaymentMethodAttached':
        if (state.status !== 'active') return state;
        return { ...state, paymentMethodIds: [...state.paymentMethodIds, event.data.payment_method_id] };
      case 'CustomerPaymentMethodDetached':
        if (state.status !== 'active') return state;
        return { ...state, paymentMethodIds: state.paymentMethodIds.filter((id) => id !== event.data.payment_method_id) };
      case 'CustomerDefaultPaymentMethodChanged':
        if (state.status !== 'active') return state;
        return { ...state, defaultPaymentMethodId: event.data.payment_method_id };
      default:
        return assertNever(event);
    }
  },
};

/** The fields of an update that differ from the customer as it is; metadata and the address are merged first. */
function changedFields(state: Extract<CustomerState, { status: 'active' }>, patch: UpdateCustomer['data']): Omit<CustomerUpdated['data'], 'customer_id'> {
  const changes: Record<string, unknown> = {};
  const current: Record<string, unknown> = {
    email: state.email,
    name: state.name,
    billing_address: state.billingAddress,
    default_payment_method_id: state.defaultPaymentMethodId,
  };
  const proposed: Record<string, unknown> = {
    email: patch.email,
    name: patch.name,
    billing_address: patch.billing_address && mergeAddress(state.billingAddress, patch.billing_address),
    default_payment_method_id: patch.default_payment_method_id,
  };
  for (const [field, value] of Object.entries(proposed)) {
    if (value !== undefined && !sameJson(value, current[field])) changes[field] = value;
  }
  if (patch.metadata !== undefined) {
    const merged = mergeMetadata(state.metadata, patch.metadata);
    if (!sameMetadata(merged, state.metadata)) changes.metadata = merged;
  }
  return changes as Omit<CustomerUpdated['data'], 'customer_id'>;
}

const sameJson = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b);
