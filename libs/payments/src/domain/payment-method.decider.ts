import { assertNever, checkMetadata, DomainError, mergeAddress, mergeMetadata, sameMetadata, type Address, type AddressPatch, type Command, type Decider, type Metadata } from '@tally/kernel';
import type { PaymentMethodAttached, PaymentMethodEvent, PaymentMethodType, PaymentMethodUpdated } from './payment-method.events';

export type Verification = 'unverified' | 'verifying' | 'verified';

export type PaymentMethodState =
  | { status: 'none' }
  | {
      status: 'active' | 'expired' | 'detached';
      id: string;
      customerId: string;
      type: PaymentMethodType;
      providerRef: string;
      verification: Verification;
      expiresAt: string | null;
      expiringNoticed: boolean;
      billingAddress: Address | null;
      metadata: Metadata;
    };

type Existing = Exclude<PaymentMethodState, { status: 'none' }>;

export type AttachPaymentMethod = Command<'AttachPaymentMethod', PaymentMethodAttached['data']>;
/** Metadata and the address are patches, as for a customer: see UpdateCustomer. */
export type UpdatePaymentMethod = Command<'UpdatePaymentMethod', { payment_method_id: string; billing_address?: AddressPatch | null; metadata?: Metadata }>;
/** What the provider answered to a verification (or to the confirmation of micro-deposits). */
export type RecordVerification = Command<'RecordVerification', { payment_method_id: string; outcome: 'verified' | 'verifying' }>;
export type MarkPaymentMethodExpiring = Command<'MarkPaymentMethodExpiring', { payment_method_id: string; expires_at: string }>;
export type MarkPaymentMethodExpired = Command<'MarkPaymentMethodExpired', { payment_method_id: string; expires_at: string }>;
export type DetachPaymentMethod = Command<'DetachPaymentMethod', { payment_method_id: string }>;

export type PaymentMethodCommand = AttachPaymentMethod | UpdatePaymentMethod | RecordVerification | MarkPaymentMethodExpiring | MarkPaymentMethodExpired | DetachPaymentMethod;

export const paymentMethodNotFound = (id: string) => DomainError.notFound('payment_method.not_found', `No payment method ${id}`);

/** The method as it must be for any change: attached (an expired card may still get a new address). */
export function attachedMethod(state: PaymentMethodState, id: string): Existing {
  if (state.status === 'none') throw paymentMethodNotFound(id);
  if (state.status === 'detached') throw DomainError.conflict('payment_method.detached', `Payment method ${id} was detached from its customer`);
  return state;
}

/** A method may be verified while it is attached and not expired. */
export function verifiableMethod(state: PaymentMethodState, id: string): Existing {
  const method = attachedMethod(state, id);
  if (method.status === 'expired') throw DomainError.conflict('payment_method.expired', `Payment method ${id} has expired`);
  return method;
}

/** Micro-deposit amounts can be confirmed only while the bank account is being verified. */
export function confirmableMethod(state: PaymentMethodState, id: string): Existing {
  const method = verifiableMethod(state, id);
  if (method.verification !== 'verifying') {
    throw DomainError.conflict('payment_method.not_verifying', `Payment method ${id} is not waiting for micro-deposit amounts; verify it first`);
  }
  return method;
}

export const paymentMethodDecider: Decider<PaymentMethodState, PaymentMethodCommand, PaymentMethodEvent> = {
  initialState: () => ({ status: 'none' }),

  decide(command, state) {
    switch (command.type) {
      case 'AttachPaymentMethod':
        if (state.status !== 'none') return [];
        checkMetadata(command.data.metadata);
        return [{ type: 'PaymentMethodAttached', data: command.data }];
      case 'UpdatePaymentMethod': {
        const method = attachedMethod(state, command.data.payment_method_id);
        const changes = changedFields(method, command.data);
        if (Object.keys(changes).length === 0) return [];
        if (changes.metadata) checkMetadata(changes.metadata);
        return [{ type: 'PaymentMethodUpdated', data: { payment_method_id: method.id, customer_id: method.customerId, ...changes } }];
      }
      case 'RecordVerification': {
        const method = verifiableMethod(state, command.data.payment_method_id);
        const ids = { payment_method_id: method.id, customer_id: method.customerId };
        if (method.verification === 'verified' || method.verification === command.data.outcome) return [];
        return command.data.outcome === 'verified'
          ? [{ type: 'PaymentMethodVerified', data: ids }]
          : [{ type: 'PaymentMethodVerificationStarted', data: { ...ids, method: 'microdeposits' } }];
      }
      case 'MarkPaymentMethodExpiring': {
        if (state.status !== 'active' || state.expiringNoticed || state.expiresAt !== command.data.expires_at) return [];
        return [{ type: 'PaymentMethodExpiring', data: { payment_method_id: state.id, customer_id: state.customerId, expires_at: command.data.expires_at } }];
      }
      case 'MarkPaymentMethodExpired':
        if (state.status !== 'active' || state.expiresAt !== command.data.expires_at) return [];
        return [{ type: 'PaymentMethodExpired', data: { payment_method_id: state.id, customer_id: state.customerId } }];
      case 'DetachPaymentMethod':
        if (state.status === 'none') throw paymentMethodNotFound(command.data.payment_method_id);
        if (state.status === 'detached') return [];
        return [{ type: 'PaymentMethodDetached', data: { payment_method_id: state.id, customer_id: state.customerId } }];
      default:
        return assertNever(command);
    }
  },

  evolve(state, event) {
    if (event.type === 'PaymentMethodAttached') {
      const { payment_method_id, customer_id, type, provider_ref, verified, expires_at, billing_address, metadata } = event.data;
      return {
        status: 'active',
        id: payment_method_id,
        customerId: customer_id,
        type,
        providerRef: provider_ref,
        verification: verified ? 'verified' : 'unverified',
        expiresAt: expires_at,
        expiringNoticed: false,
        billingAddress: billing_address,
        metadata,
      };
    }
    if (state.status === 'none') return state;
    switch (event.type) {
      case 'PaymentMethodUpdated': {
        const { billing_address, metadata } = event.data;
        return { ...state, ...(billing_address !== undefined && { billingAddress: billing_address }), ...(metadata !== undefined && { metadata }) };
      }
      case 'PaymentMethodVerificationStarted':
        return { ...state, verification: 'verifying' };
      case 'PaymentMethodVerified':
        return { ...state, verification: 'verified' };
      case 'PaymentMethodExpiring':
        return { ...state, expiringNoticed: true };
      case 'PaymentMethodExpired':
        return { ...state, status: 'expired' };
      case 'PaymentMethodDetached':
        return { ...state, status: 'detached' };
      default:
        return assertNever(event);
    }
  },
};

function changedFields(method: Existing, patch: UpdatePaymentMethod['data']): Omit<PaymentMethodUpdated['data'], 'payment_method_id' | 'customer_id'> {
  const changes: { billing_address?: Address | null; metadata?: Metadata } = {};
  if (patch.billing_address !== undefined) {
    const address = patch.billing_address && mergeAddress(method.billingAddress, patch.billing_address);
    if (JSON.stringify(address) !== JSON.stringify(method.billingAddress)) changes.billing_address = address;
  }
  if (patch.metadata !== undefined) {
    const merged = mergeMetadata(method.metadata, patch.metadata);
    if (!sameMetadata(merged, method.metadata)) changes.metadata = merged;
  }
  return changes;
}
