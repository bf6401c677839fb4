/**
 * The chart of accounts of the ledger (docs/ledger.md). Each account has a normal side: the side
 * its balance is shown on (assets, expenses and contra-revenue are debit accounts; liabilities,
 * revenue and equity credit accounts).
 */
export const LEDGER_ACCOUNTS = {
  /** What customers owe on open and partly paid invoices: the sum of their `amount_due`. */
  accounts_receivable: { type: 'asset' },
  /** Money at the payment providers and the bank. */
  cash: { type: 'asset' },
  /** Payments received and not (yet) applied to an invoice: settled when applied or returned. */
  unapplied_payments: { type: 'liability' },
  /** Tax invoiced, owed to the authorities. */
  tax_payable: { type: 'liability' },
  /** The customers' wallet balances: money held for them. */
  wallet_liability: { type: 'liability' },
  /** Credited after payment (a post-payment credit note, a negative invoice, a void's paid part) and not yet refunded or put in a wallet. */
  credits_owed: { type: 'liability' },
  /** Invoiced revenue, net of discounts and of tax. */
  revenue: { type: 'revenue' },
  /** Contra-revenue: what credit notes (and so refunds) took back of invoiced revenue. */
  refunds: { type: 'contra_revenue' },
  /** Invoices written off (marked uncollectible). */
  bad_debt: { type: 'expense' },
  /** Payments the customer's bank took back while their dispute is open or lost. */
  chargebacks: { type: 'expense' },
  /** Complimentary credit granted to wallets. */
  promotional_credits: { type: 'expense' },
  /** Balances brought in from another system and corrections of wallets. */
  adjustments: { type: 'equity' },
} as const;

export type LedgerAccount = keyof typeof LEDGER_ACCOUNTS;
export type AccountType = (typeof LEDGER_ACCOUNTS)[LedgerAccount]['type'];

const DEBIT_TYPES: ReadonlySet<AccountType> = new Set(['asset', 'expense', 'contra_revenue']);

/** The side an account's balance is shown on, which its type decides. */
export const normalSideOf = (type: AccountType): 'debit' | 'credit' => (DEBIT_TYPES.has(type) ? 'debit' : 'credit');
export const LEDGER_ACCOUNT_NAMES = Object.keys(LEDGER_ACCOUNTS) as LedgerAccount[];

export const isLedgerAccount = (name: string): name is LedgerAccount => Object.hasOwn(LEDGER_ACCOUNTS, name);
