import type { PaymentMethodType, WalletDetails } from '../../domain/payment-method.events';
import type { AttachOutcome, ChargeError, ChargeOutcome, ProviderCardDetails } from '../payment-provider.port';
import { genericDecline, insufficientFunds, processingError } from './charge-errors';
import { failed, succeeded } from './charge-outcomes';
import { clientSecretFor } from './sandbox-ids';
import { expiryWithinAMonth } from './sandbox-time';

/** What a method attaches as, but for its provider reference. */
export type AttachedMethod = Omit<Extract<AttachOutcome, { ok: true }>, 'ok' | 'providerRef'>;

export interface ChargeAttempt {
  providerPaymentId: string;
  now: string;
  idempotencyKey: string;
}

export interface TestToken {
  readonly type: PaymentMethodType;
  readonly attachesAs: (now: string) => AttachedMethod;
  readonly charge: (attempt: ChargeAttempt) => ChargeOutcome;
  /** The customer's bank later disputes the token's successful payments. */
  readonly disputesAfterSuccess: boolean;
}

type ChargeRule = TestToken['charge'];

const succeeds: ChargeRule = ({ providerPaymentId, now }) => succeeded(providerPaymentId, now);

const settlesLater: ChargeRule = ({ providerPaymentId }) => ({ status: 'processing', providerPaymentId });

const declines =
  (error: (now: string) => ChargeError): ChargeRule =>
  ({ providerPaymentId, now }) =>
    failed(providerPaymentId, error(now));

const redirectsToAuthenticate: ChargeRule = ({ providerPaymentId }) => ({
  status: 'requires_action',
  providerPaymentId,
  nextAction: { type: 'redirect_to_url' },
});

const authenticatesInProviderSdk: ChargeRule = ({ providerPaymentId, idempotencyKey }) => ({
  status: 'requires_action',
  providerPaymentId,
  nextAction: { type: 'use_provider_sdk', provider: 'sandbox', payment_intent_client_secret: clientSecretFor(providerPaymentId, idempotencyKey) },
});

type CardExpiry = Pick<ProviderCardDetails, 'exp_month' | 'exp_year'>;

interface CardBehaviour {
  funding?: ProviderCardDetails['funding'];
  expiry?: (now: string) => CardExpiry;
  charge?: ChargeRule;
  disputesAfterSuccess?: boolean;
}

const expiresIn2034 = (): CardExpiry => ({ exp_month: 12, exp_year: 2034 });

const card = (
  brand: string,
  last4: string,
  { funding = 'credit', expiry = expiresIn2034, charge = succeeds, disputesAfterSuccess = false }: CardBehaviour = {},
): TestToken => ({
  type: 'card',
  // Verifying a card is an operation of its own.
  attachesAs: (now) => ({ card: { brand, last4, ...expiry(now), country: 'US', funding }, bank_account: null, wallet: null, verified: false }),
  charge,
  disputesAfterSuccess,
});

const bankAccount: TestToken = {
  type: 'bank_account',
  attachesAs: () => ({
    card: null,
    bank_account: { last4: '6789', routing: '110000000', holder: 'Jenny Rosen', status: 'new' },
    wallet: null,
    verified: false,
  }),
  charge: settlesLater,
  disputesAfterSuccess: false,
};

const wallet = (type: 'paypal' | 'wallet', kind: WalletDetails['kind'], email: string | null): TestToken => ({
  type,
  attachesAs: () => ({ card: null, bank_account: null, wallet: { kind, email }, verified: true }),
  charge: succeeds,
  disputesAfterSuccess: false,
});

/** The sandbox's test tokens by name; each behaves the same way every time. */
export const TEST_TOKENS: ReadonlyMap<string, TestToken> = new Map([
  ['tok_visa', card('visa', '4242')],
  ['tok_mastercard', card('mastercard', '4444')],
  ['tok_amex', card('amex', '8431')],
  ['tok_visa_debit', card('visa', '5556', { funding: 'debit' })],
  ['tok_card_declined', card('visa', '0002', { charge: declines(genericDecline) })],
  ['tok_insufficient_funds', card('visa', '9995', { charge: declines(insufficientFunds) })],
  ['tok_processing_error', card('visa', '0119', { charge: declines(processingError) })],
  ['tok_3ds_required', card('visa', '3155', { charge: redirectsToAuthenticate })],
  ['tok_3ds_sdk', card('visa', '3184', { charge: authenticatesInProviderSdk })],
  ['tok_expiring', card('visa', '1111', { expiry: expiryWithinAMonth })],
  ['tok_chargeback', card('visa', '0259', { disputesAfterSuccess: true })],
  ['tok_bank_account', bankAccount],
  ['tok_paypal', wallet('paypal', 'paypal', 'buyer@example.com')],
  ['tok_apple_pay', wallet('wallet', 'apple_pay', null)],
  ['tok_google_pay', wallet('wallet', 'google_pay', null)],
]);
