import { REDACTED, type PiiFieldSpec } from '@tally/cells';

/** What a replay shows for personal data once the customer's data key is destroyed. */
export { REDACTED };

const subject = (data: { customer_id: string }) => data.customer_id;

const profile = [
  { path: 'email', redacted: REDACTED },
  { path: 'name', redacted: REDACTED },
  { path: 'billing_address', redacted: null },
  { path: 'metadata', redacted: {} },
];

/** The customer's personal data inside events, encrypted with the customer's own data key. */
export const customerPii: PiiFieldSpec[] = [
  { eventType: 'CustomerCreated', subject, fields: profile },
  { eventType: 'CustomerUpdated', subject, fields: profile },
  { eventType: 'CustomerTaxIdAdded', subject, fields: [{ path: 'value', redacted: REDACTED }] },
];
