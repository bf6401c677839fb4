import type { ContextManifest } from '@tally/runtime';
import { InvoicingModule } from './invoicing.module';

/** Invoice lines, discounts and totals; today the invoice preview. */
export const invoicingContext: ContextManifest = {
  name: 'invoicing',
  module: InvoicingModule,
};
