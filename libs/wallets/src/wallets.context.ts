import type { ContextManifest } from '@tally/runtime';
import { walletAggregate } from './wallet.aggregate';
import { walletProjection } from './wallet-transactions.projection';
import { WalletsModule } from './wallets.module';
import { WALLETS_SECTION } from './wallets.api-sections';

/** Wallets: a customer's prepaid credit balance per currency, its ledger of transactions, automatic top-up and drift floor. */
export const walletsContext: ContextManifest = {
  name: 'wallets',
  apiSections: [WALLETS_SECTION],
  module: WalletsModule,
  projections: [walletProjection],
  timedAggregates: [walletAggregate],
  aggregateTypes: [{ idPrefix: 'wal', type: 'wallet' }],
};
