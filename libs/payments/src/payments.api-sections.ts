import type { ApiSection } from '@tally/runtime';

export const PAYMENT_METHODS_SECTION: ApiSection = { name: 'payment methods', description: 'How a customer pays: cards, bank accounts and wallets, attached by provider token, verified, with one default', order: 70 };
export const PAYMENTS_SECTION: ApiSection = { name: 'payments', description: 'Charges of invoices: 3DS actions, failures with their retry hints, cancellations; sandbox test helpers', order: 80 };
export const REFUNDS_SECTION: ApiSection = { name: 'refunds', description: 'Refunds of payments, to the original method or the wallet, with their credit notes, retries and the operator’s resolution', order: 82 };
