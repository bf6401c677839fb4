import { resourceProjection } from '@tally/runtime';
import { INVOICE_INDEXES } from './invoice.queries';
import { invoiceView } from './invoice.view';

/** The invoices read model and the invoices' entries in the public event log. */
export const invoiceProjection = resourceProjection(invoiceView, INVOICE_INDEXES);
