import type { Event, Metadata } from '@tally/kernel';
import type { PaymentMethodType } from './payment-method.events';

export type SetupIntentUsage = 'off_session' | 'on_session';

/** A customer's method to be captured client-side, as Stripe's SetupIntent: the client confirms it with a token. */
export type SetupIntentCreated = Event<
  'SetupIntentCreated',
  {
    setup_intent_id: string;
    customer_id: string;
    payment_method_types: PaymentMethodType[];
    usage: SetupIntentUsage;
    set_as_default: boolean;
    description: string | null;
    metadata: Metadata;
    client_secret: string;
  }
>;

export type SetupIntentSucceeded = Event<'SetupIntentSucceeded', { setup_intent_id: string; customer_id: string; payment_method_id: string }>;

export type SetupIntentCanceled = Event<'SetupIntentCanceled', { setup_intent_id: string; customer_id: string; reason: string | null }>;

export type SetupIntentEvent = SetupIntentCreated | SetupIntentSucceeded | SetupIntentCanceled;
