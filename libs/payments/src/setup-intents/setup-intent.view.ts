import { assertNever } from '@tally/kernel';
import type { ResourceView } from '@tally/runtime';
import type { PaymentMethodType } from '../domain/payment-method.events';
import type { SetupIntentStatus } from '../domain/setup-intent.decider';
import type { SetupIntentEvent, SetupIntentUsage } from '../domain/setup-intent.events';

export interface SetupIntentResource {
  [field: string]: unknown;
  id: string;
  object: 'setup_intent';
  customer_id: string;
  status: SetupIntentStatus;
  payment_method_types: PaymentMethodType[];
  usage: SetupIntentUsage;
  set_as_default: boolean;
  /** The method the confirmation attached, once it succeeded. */
  payment_method_id: string | null;
  /** For the client that confirms it (Stripe's `client_secret`); not an API key. */
  client_secret: string;
  cancellation_reason: string | null;
  description: string | null;
  metadata: Record<string, string>;
  livemode: boolean;
  created_at: string;
  updated_at: string;
}

/** The setup intent as the API shows it; it publishes no events (the spec names none; the method's attach is the customer's event). */
export const setupIntentView: ResourceView<SetupIntentResource, SetupIntentEvent> = {
  aggregateType: 'setup_intent',
  collection: 'setup_intents',

  apply(intent, event) {
    const at = event.metadata.occurred_at;
    if (event.type === 'SetupIntentCreated') {
      const { setup_intent_id, customer_id, payment_method_types, usage, set_as_default, description, metadata, client_secret } = event.data;
      return {
        id: setup_intent_id,
        object: 'setup_intent',
        customer_id,
        status: 'requires_payment_method',
        payment_method_types: [...payment_method_types],
        usage,
        set_as_default,
        payment_method_id: null,
        client_secret,
        cancellation_reason: null,
        description,
        metadata: { ...metadata },
        livemode: event.metadata.environment === 'live',
        created_at: at,
        updated_at: at,
      };
    }
    if (!intent) return undefined;
    switch (event.type) {
      case 'SetupIntentSucceeded':
        return { ...intent, status: 'succeeded', payment_method_id: event.data.payment_method_id, updated_at: at };
      case 'SetupIntentCanceled':
        return { ...intent, status: 'canceled', cancellation_reason: event.data.reason, updated_at: at };
      default:
        return assertNever(event);
    }
  },

  publicTypes: [],
  publicType: () => undefined,
};
