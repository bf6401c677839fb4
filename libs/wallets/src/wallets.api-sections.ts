import type { ApiSection } from '@tally/runtime';

export const WALLETS_SECTION: ApiSection = { name: 'wallets', description: 'Prepaid credit balances per customer and currency: credits, debits, grants, their ledger, automatic top-up and the drift floor (from API version 2025-10-01)', order: 85 };
