import { asEventOf, scopedIndex, TIMESTAMP_FILTER, type ListSpec, type Projection } from '@tally/runtime';
import { WALLET_CREDIT_REASONS, WALLET_DEBIT_REASONS, type WalletCredited, type WalletDebited } from './domain/wallet.events';
import { walletResource } from './wallet.resource';
import { transactionResource } from './wallet.view';

export const WALLET_TRANSACTIONS = 'wallet_transactions';

/** A wallet's ledger: newest first by its own order (`sequence`), which a frozen test clock's equal `created_at`s would not give. */
export const WALLET_TRANSACTION_LIST: ListSpec = {
  sortable: ['sequence'],
  defaultSort: { field: 'sequence', direction: 'desc' },
  filters: {
    type: { ops: ['eq'], values: ['credit', 'debit'] },
    reason: { ops: ['eq', 'in'], values: [...WALLET_CREDIT_REASONS, ...WALLET_DEBIT_REASONS] },
    created_at: TIMESTAMP_FILTER,
  },
};

const resources = walletResource.projection;

/** The wallets read model and their public events, plus a document per posted transaction: the ledger `GET /v1/wallets/{id}/transactions` pages. */
export const walletProjection: Projection = {
  ...resources,
  collections: [...resources.collections, { name: WALLET_TRANSACTIONS, indexes: [scopedIndex('wallet_id', 'sequence')] }],
  async handle(event, writer) {
    await resources.handle(event, writer);
    if (event.type !== 'WalletCredited' && event.type !== 'WalletDebited') return;
    const { data } = asEventOf<WalletCredited | WalletDebited>(event);
    const { tenant_id, environment } = event.metadata;
    writer.upsert(WALLET_TRANSACTIONS, { ...transactionResource(data, environment === 'live'), tenant_id, environment });
  },
};
