import type { PiiFieldSpec } from '@tally/cells';
import { REDACTED } from '@tally/customers';

const subject = (data: { customer_id: string }) => data.customer_id;

/** A payment method's personal data, sealed with its customer's data key, so erasing the customer shreds it too. */
export const paymentMethodPii: PiiFieldSpec[] = [
  {
    eventType: 'PaymentMethodAttached',
    subject,
    fields: [
      { path: 'billing_address', redacted: null },
      { path: 'metadata', redacted: {} },
      { path: 'bank_account.holder', redacted: REDACTED },
      { path: 'wallet.email', redacted: null },
    ],
  },
  {
    eventType: 'PaymentMethodUpdated',
    subject,
    fields: [
      { path: 'billing_address', redacted: null },
      { path: 'metadata', redacted: {} },
    ],
  },
];
