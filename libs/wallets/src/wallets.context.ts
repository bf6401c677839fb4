import type { ContextManifest } from '@tally/runtime';
import { walletAggregate } from './wallet.aggregate';
import { walletResource } from './wallet.resource';
import { WalletsModule } from './wallets.module';
import { WALLETS_SECTION } from './wallets.api-sections';

/** Wallets: a customer's prepaid credit balance per currency, its ledger of transactions, automatic top-up and drift floor. */
export const walletsContext: ContextManifest = {
  name: 'wallets',
  apiSections: [WALLETS_SECTION],
  module: WalletsModule,
  projections: [walletResource.projection],
  timedAggregates: [walletAggregate],
  aggregateTypes: [{ idPrefix: 'wal', type: 'wallet' }],
};
