import type { ApiSection } from '@tally/runtime';

export const PAYMENT_METHODS_SECTION: ApiSection = { name: 'payment methods', description: 'How a customer pays: cards, bank accounts and wallets, attached by provider token, verified, with one default', order: 70 };
export const PAYMENTS_SECTION: ApiSection = { name: 'payments', description: 'Charges of invoices: 3DS actions, failures with their retry hints, cancellations; sandbox test helpers', order: 80 };
