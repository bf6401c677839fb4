import type { ApiSection } from '@tally/runtime';

export const REPORTS_SECTION: ApiSection = { name: 'reports', description: 'The double-entry ledger of every money event: balances by account and period, and its journal', order: 105 };
