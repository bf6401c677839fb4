/**
 * The chart of accounts of the ledger (docs/ledger.md). Each account has a normal side: the side
 * its balance is shown on (assets, expenses and contra-revenue are debit accounts; liabilities,
 * revenue and equity credit accounts).
 */
export const LEDGER_ACCOUNTS = {
  /** What customers owe on open and partly paid invoices: the sum of their `amount_due`. */
  accounts_receivable: { type: 'asset', normal: 'debit' },
  /** Money at the payment providers and the bank. */
  cash: { type: 'asset', normal: 'debit' },
  /** Payments received and not (yet) applied to an invoice: settled when applied or returned. */
  unapplied_payments: { type: 'liability', normal: 'credit' },
  /** Tax invoiced, owed to the authorities. */
  tax_payable: { type: 'liability', normal: 'credit' },
  /** The customers' wallet balances: money held for them. */
  wallet_liability: { type: 'liability', normal: 'credit' },
  /** Credited after payment (a post-payment credit note, a negative invoice, a void's paid part) and not yet refunded or put in a wallet. */
  credits_owed: { type: 'liability', normal: 'credit' },
  /** Invoiced revenue, net of discounts and of tax. */
  revenue: { type: 'revenue', normal: 'credit' },
  /** Contra-revenue: what credit notes (and so refunds) took back of invoiced revenue. */
  refunds: { type: 'contra_revenue', normal: 'debit' },
  /** Invoices written off (marked uncollectible). */
  bad_debt: { type: 'expense', normal: 'debit' },
  /** Payments the customer's bank took back while their dispute is open or lost. */
  chargebacks: { type: 'expense', normal: 'debit' },
  /** Complimentary credit granted to wallets. */
  promotional_credits: { type: 'expense', normal: 'debit' },
  /** Balances brought in from another system and corrections of wallets. */
  adjustments: { type: 'equity', normal: 'credit' },
} as const;

export type LedgerAccount = keyof typeof LEDGER_ACCOUNTS;
export type AccountType = (typeof LEDGER_ACCOUNTS)[LedgerAccount]['type'];
export const LEDGER_ACCOUNT_NAMES = Object.keys(LEDGER_ACCOUNTS) as LedgerAccount[];

export const isLedgerAccount = (name: string): name is LedgerAccount => Object.hasOwn(LEDGER_ACCOUNTS, name);
