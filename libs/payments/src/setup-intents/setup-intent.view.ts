import { defineView, type StampedResource } from '@tally/runtime';
import type { PaymentMethodType } from '../domain/payment-method.events';
import type { SetupIntentStatus } from '../domain/setup-intent.decider';
import type { SetupIntentEvent, SetupIntentUsage } from '../domain/setup-intent.events';

export interface SetupIntentResource extends StampedResource {
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
}

/** The setup intent as the API shows it; it publishes no events (the spec names none; the method's attach is the customer's event). */
export const setupIntentView = defineView<SetupIntentResource, SetupIntentEvent, 'SetupIntentCreated'>({
  object: 'setup_intent',
  created: {
    type: 'SetupIntentCreated',
    fields: ({ customer_id, payment_method_types, usage, set_as_default, description, metadata, client_secret }) => ({
      customer_id,
      status: 'requires_payment_method',
      payment_method_types: [...payment_method_types],
      usage,
      set_as_default,
      payment_method_id: null,
      client_secret,
      cancellation_reason: null,
      description,
      metadata,
    }),
  },
  changes: {
    SetupIntentSucceeded: (_intent, { payment_method_id }) => ({ status: 'succeeded', payment_method_id }),
    SetupIntentCanceled: (_intent, { reason }) => ({ status: 'canceled', cancellation_reason: reason }),
  },
  publicTypes: { SetupIntentCreated: undefined, SetupIntentSucceeded: undefined, SetupIntentCanceled: undefined },
});
