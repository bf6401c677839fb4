import { assertNever, type Address } from '@tally/kernel';
import type { ResourceView } from '@tally/runtime';
import type { BankAccountDetails, CardDetails, PaymentMethodEvent, PaymentMethodType, WalletDetails } from './domain/payment-method.events';

export type PaymentMethodStatus = 'active' | 'expired' | 'detached';

export interface PaymentMethodResource {
  [field: string]: unknown;
  id: string;
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
  livemode: boolean;
  created_at: string;
  updated_at: string;
}

/** The payment method as the API shows it, folded from its events. */
export const paymentMethodView: ResourceView<PaymentMethodResource, PaymentMethodEvent> = {
  aggregateType: 'payment_method',
  collection: 'payment_methods',

  apply(method, event) {
    const at = event.metadata.occurred_at;
    if (event.type === 'PaymentMethodAttached') {
      const { payment_method_id, customer_id, type, card, bank_account, wallet, verified, billing_address, metadata } = event.data;
      return {
        id: payment_method_id,
        object: 'payment_method',
        customer_id,
        type,
        status: 'active',
        is_default: false,
        verified,
        card,
        bank_account,
        wallet,
        billing_address,
        metadata: { ...metadata },
        livemode: event.metadata.environment === 'live',
        created_at: at,
        updated_at: at,
      };
    }
    if (!method) return undefined;
    switch (event.type) {
      case 'PaymentMethodUpdated': {
        const { billing_address, metadata } = event.data;
        return {
          ...method,
          ...(billing_address !== undefined && { billing_address }),
          ...(metadata !== undefined && { metadata: { ...metadata } }),
          updated_at: at,
        };
      }
      case 'PaymentMethodVerificationStarted':
        return { ...method, bank_account: withBankStatus(method.bank_account, 'verifying'), updated_at: at };
      case 'PaymentMethodVerified':
        return { ...method, verified: true, bank_account: withBankStatus(method.bank_account, 'verified'), updated_at: at };
      case 'PaymentMethodExpiring':
        return method;
      case 'PaymentMethodExpired':
        return { ...method, status: 'expired', updated_at: at };
      case 'PaymentMethodDetached':
        return { ...method, status: 'detached', customer_id: null, is_default: false, updated_at: at };
      default:
        return assertNever(event);
    }
  },

  publicTypes: ['payment_method.verified', 'payment_method.expiring', 'payment_method.expired'],
  publicType(event) {
    switch (event.type) {
      case 'PaymentMethodVerified':
        return 'payment_method.verified';
      case 'PaymentMethodExpiring':
        return 'payment_method.expiring';
      case 'PaymentMethodExpired':
        return 'payment_method.expired';
      // Attaching and detaching are the customer's events (customer.payment_method_attached / _detached).
      default:
        return undefined;
    }
  },
};

const withBankStatus = (account: BankAccountDetails | null, status: BankAccountDetails['status']): BankAccountDetails | null => account && { ...account, status };
