import { assertNever, checkMetadata, DomainError, type Command, type Decider } from '@tally/kernel';
import type { PaymentMethodType } from './payment-method.events';
import type { SetupIntentCreated, SetupIntentEvent } from './setup-intent.events';

export type SetupIntentStatus = 'requires_payment_method' | 'succeeded' | 'canceled';

export type SetupIntentState =
  | { status: 'none' }
  | { status: SetupIntentStatus; id: string; customerId: string; paymentMethodTypes: readonly PaymentMethodType[]; setAsDefault: boolean; paymentMethodId: string | null };

export type CreateSetupIntent = Command<'CreateSetupIntent', SetupIntentCreated['data']>;
/** The method the confirmation attached; the handler attached it only after `confirmableSetupIntent` allowed it. */
export type RecordSetupIntentSuccess = Command<'RecordSetupIntentSuccess', { setup_intent_id: string; payment_method_id: string }>;
export type CancelSetupIntent = Command<'CancelSetupIntent', { setup_intent_id: string; reason: string | null }>;

export type SetupIntentCommand = CreateSetupIntent | RecordSetupIntentSuccess | CancelSetupIntent;

export const setupIntentNotFound = (id: string) => DomainError.notFound('setup_intent.not_found', `No setup intent ${id}`);

/** A setup intent takes a method while it waits for one, and only of the types it was created for. */
export function confirmableSetupIntent(state: SetupIntentState, id: string, type: PaymentMethodType): Exclude<SetupIntentState, { status: 'none' }> {
  if (state.status === 'none') throw setupIntentNotFound(id);
  if (state.status !== 'requires_payment_method') {
    throw DomainError.conflict('setup_intent.unexpected_state', `Setup intent ${id} is ${state.status}; only one that requires a payment method can be confirmed`);
  }
  if (!state.paymentMethodTypes.includes(type)) {
    throw DomainError.unprocessable('setup_intent.payment_method_type_not_allowed', `Setup intent ${id} takes ${state.paymentMethodTypes.join(', ')}, not ${type}`, [
      { field: 'type', code: 'setup_intent.payment_method_type_not_allowed', message: `one of ${state.paymentMethodTypes.join(', ')}` },
    ]);
  }
  return state;
}

export const setupIntentDecider: Decider<SetupIntentState, SetupIntentCommand, SetupIntentEvent> = {
  initialState: () => ({ status: 'none' }),

  decide(command, state) {
    switch (command.type) {
      case 'CreateSetupIntent':
        if (state.status !== 'none') return [];
        checkMetadata(command.data.metadata);
        return [{ type: 'SetupIntentCreated', data: command.data }];
      case 'RecordSetupIntentSuccess': {
        if (state.status === 'none') throw setupIntentNotFound(command.data.setup_intent_id);
        if (state.status === 'succeeded' && state.paymentMethodId === command.data.payment_method_id) return [];
        if (state.status !== 'requires_payment_method') {
          throw DomainError.conflict('setup_intent.unexpected_state', `Setup intent ${state.id} is ${state.status}; it takes no other payment method`);
        }
        return [{ type: 'SetupIntentSucceeded', data: { setup_intent_id: state.id, customer_id: state.customerId, payment_method_id: command.data.payment_method_id } }];
      }
      case 'CancelSetupIntent':
        if (state.status === 'none') throw setupIntentNotFound(command.data.setup_intent_id);
        if (state.status === 'canceled') return [];
        if (state.status === 'succeeded') throw DomainError.conflict('setup_intent.unexpected_state', `Setup intent ${state.id} succeeded; it can no longer be canceled`);
        return [{ type: 'SetupIntentCanceled', data: { setup_intent_id: state.id, customer_id: state.customerId, reason: command.data.reason } }];
      default:
        return assertNever(command);
    }
  },

  evolve(state, event) {
    switch (event.type) {
      case 'SetupIntentCreated': {
        const { setup_intent_id, customer_id, payment_method_types, set_as_default } = event.data;
        return { status: 'requires_payment_method', id: setup_intent_id, customerId: customer_id, paymentMethodTypes: payment_method_types, setAsDefault: set_as_default, paymentMethodId: null };
      }
      case 'SetupIntentSucceeded':
        return state.status === 'none' ? state : { ...state, status: 'succeeded', paymentMethodId: event.data.payment_method_id };
      case 'SetupIntentCanceled':
        return state.status === 'none' ? state : { ...state, status: 'canceled' };
      default:
        return assertNever(event);
    }
  },
};
