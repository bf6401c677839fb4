import { parseAmount } from '@tally/kernel';
import { editProperty, optionalProperty } from '../schema-edits';
import type { VersionTransformer } from '../version-transformer';

/**
 * Before 2025-04-01 an invoice without tax had no `tax` field; since then it is zero-filled.
 * A zero `tax` is therefore omitted (see docs/decisions.md, API versions).
 */
export const invoiceTaxOmittedWhenZero: VersionTransformer = {
  name: 'invoice-tax-omitted-when-zero',
  from: '2025-04-01',
  to: '2024-10-01',
  objects: ['invoice'],
  transform: (invoice) => {
    if (typeof invoice.tax !== 'string' || !parseAmount(invoice.tax).eq(0)) return invoice;
    const { tax: _zero, ...rest } = invoice;
    return rest;
  },
  transformSchema: (invoice) => optionalProperty(editProperty(invoice, 'tax', (tax) => ({ ...tax, description: 'Left out when the invoice has no tax' })), 'tax'),
};
