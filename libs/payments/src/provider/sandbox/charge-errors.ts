import type { ChargeError } from '../payment-provider.port';
import { isoMillis, oneDayAfter } from './sandbox-time';

export const genericDecline = (): ChargeError => ({
  code: 'card_declined',
  decline_code: 'generic_decline',
  provider_message: 'The card was declined.',
  user_message: 'Your card was declined. Please use another payment method.',
  is_retriable: false,
  retriable_after: null,
});

export const insufficientFunds = (now: string): ChargeError => ({
  code: 'card_declined',
  decline_code: 'insufficient_funds',
  provider_message: 'The card has insufficient funds to complete the purchase.',
  user_message: 'Your card has insufficient funds. Please try again later or use another payment method.',
  is_retriable: true,
  retriable_after: oneDayAfter(now),
});

export const processingError = (now: string): ChargeError => ({
  code: 'processing_error',
  decline_code: null,
  provider_message: 'An error occurred while processing the card.',
  user_message: 'We could not process your card. Please try again.',
  is_retriable: true,
  retriable_after: isoMillis(now),
});

export const authenticationFailed = (): ChargeError => ({
  code: 'authentication_failed',
  decline_code: null,
  provider_message: 'The cardholder did not complete authentication.',
  user_message: 'Your bank could not confirm this payment. Please try again or use another payment method.',
  is_retriable: false,
  retriable_after: null,
});

export const paymentMethodUnknown = (): ChargeError => ({
  code: 'payment_method_unknown',
  decline_code: null,
  provider_message: 'No payment method is attached under this reference.',
  user_message: 'This payment method is no longer available. Please use another payment method.',
  is_retriable: false,
  retriable_after: null,
});

export const paymentUnknown = (): ChargeError => ({
  code: 'payment_unknown',
  decline_code: null,
  provider_message: 'No payment has this id.',
  user_message: 'This payment could not be found.',
  is_retriable: false,
  retriable_after: null,
});
