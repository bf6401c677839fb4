import type { ApiSection } from '@tally/runtime';

export const INVOICES_SECTION: ApiSection = { name: 'invoices', description: 'What a plan bills a customer: previews with lines, discounts and tax', order: 60 };
