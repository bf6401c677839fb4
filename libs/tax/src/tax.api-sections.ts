import type { ApiSection } from '@tally/runtime';

export const TAX_SECTION: ApiSection = { name: 'tax', description: 'Where you sell from, which decides the tax on your invoices', order: 50 };
