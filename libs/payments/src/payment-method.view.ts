import type { Address } from '@tally/kernel';
import { defineView, type StampedResource } from '@tally/runtime';
import type { BankAccountDetails, CardDetails, PaymentMethodEvent, PaymentMethodType, WalletDetails } from './domain/payment-method.events';

export type PaymentMethodStatus = 'active' | 'expired' | 'detached';

export interface PaymentMethodResource extends StampedResource {
  object: 'payment_method';
  /** Null once detached. */
  customer_id: string | null;
  type: PaymentMethodType;
  status: PaymentMethodStatus;
  /** Whether it is its customer's default; the customer decides, so the read model follows the customer's events. */
  is_default: boolean;
  verified: boolean;
  card: CardDetails | null;
  bank_account: BankAccountDetails | null;
  wallet: WalletDetails | null;
  billing_address: Address | null;
  metadata: Record<string, string>;
}

/** The payment method as the API shows it, folded from its events. */
export const paymentMethodView = defineView<PaymentMethodResource, PaymentMethodEvent, 'PaymentMethodAttached'>({
  object: 'payment_method',
  created: {
    type: 'PaymentMethodAttached',
    fields: ({ customer_id, type, card, bank_account, wallet, verified, billing_address, metadata }) => ({
      customer_id,
      type,
      status: 'active',
      is_default: false,
      verified,
      card,
      bank_account,
      wallet,
      billing_address,
      metadata,
    }),
  },
  changes: {
    PaymentMethodUpdated: (_method, { billing_address, metadata }) => ({ ...(billing_address !== undefined && { billing_address }), ...(metadata !== undefined && { metadata }) }),
    PaymentMethodVerificationStarted: (method) => ({ bank_account: withBankStatus(method.bank_account, 'verifying') }),
    PaymentMethodVerified: (method) => ({ verified: true, bank_account: withBankStatus(method.bank_account, 'verified') }),
    PaymentMethodExpiring: 'unchanged',
    PaymentMethodExpired: () => ({ status: 'expired' }),
    PaymentMethodDetached: () => ({ status: 'detached', customer_id: null, is_default: false }),
  },
  // Attaching and detaching are the customer's events (customer.payment_method_attached / _detached).
  publicTypes: {
    PaymentMethodAttached: undefined,
    PaymentMethodUpdated: undefined,
    PaymentMethodVerificationStarted: undefined,
    PaymentMethodVerified: 'payment_method.verified',
    PaymentMethodExpiring: 'payment_method.expiring',
    PaymentMethodExpired: 'payment_method.expired',
    PaymentMethodDetached: undefined,
  },
});

const withBankStatus = (account: BankAccountDetails | null, status: BankAccountDetails['status']): BankAccountDetails | null => account && { ...account, status };
