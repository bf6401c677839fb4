import type { ApiSection } from '@tally/runtime';

export const CUSTOMERS_SECTION: ApiSection = { name: 'customers', description: 'The people and companies you bill: contact and billing address, metadata, tax IDs', order: 10 };
