/**
 * What other contexts may use of wallets: the commands a wallet takes from them (sent with
 * `commands.send(walletPostings, …)`, as a builder so the posting gets "now" on the wallet's
 * clock), its events, and the transaction and source shapes. `CustomerWallets` (from the index)
 * finds, makes and credits a customer's wallet. Pure, so a domain folder may import it.
 */
export type { CreditWallet, DebitWallet, WalletCommand, WalletState } from './domain/wallet.decider';
export { transactionOf, WALLET_ID_PREFIX, WALLET_TRANSACTION_ID_PREFIX } from './domain/wallet.decider';
export * from './domain/wallet.events';
