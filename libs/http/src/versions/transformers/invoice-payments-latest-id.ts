import { editProperty } from '../schema-edits';
import type { VersionTransformer } from '../version-transformer';

/**
 * Before 2026-04-01 `invoice.payments` was the id of the invoice's latest payment, or null
 * (see docs/decisions.md, API versions). The list holds the ids in attempt order, oldest first.
 */
export const invoicePaymentsLatestId: VersionTransformer = {
  name: 'invoice-payments-latest-id',
  from: '2026-04-01',
  to: '2025-10-01',
  objects: ['invoice'],
  transform: (invoice) => {
    const payments = invoice.payments;
    if (!Array.isArray(payments)) return invoice;
    return { ...invoice, payments: payments.at(-1) ?? null };
  },
  transformSchema: (invoice) =>
    editProperty(invoice, 'payments', () => ({ type: ['string', 'null'], description: 'The id of the invoice’s latest payment, or null when it has none', example: 'pay_01JD…' })),
};
