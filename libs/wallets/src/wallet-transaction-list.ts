import { Injectable } from '@nestjs/common';
import type { RequestContext } from '@tally/cells';
import { parseListQuery, ResourceReads, ScopedReads, toPage, type ListPage } from '@tally/runtime';
import { walletResource } from './wallet.resource';
import type { WalletTransactionResource } from './wallet.view';
import { WALLET_TRANSACTION_LIST, WALLET_TRANSACTIONS } from './wallet-transactions.projection';

/** A wallet's transactions, a page at a time (an unknown wallet: its 404). */
@Injectable()
export class WalletTransactionList {
  constructor(
    private readonly reads: ScopedReads,
    private readonly resources: ResourceReads,
  ) {}

  async page(context: RequestContext, walletId: string, params: Record<string, unknown>): Promise<ListPage<WalletTransactionResource>> {
    await this.resources.retrieve(walletResource, context, walletId);
    const cursors = this.reads.cursorsFor(context, `${WALLET_TRANSACTIONS}:${walletId}`);
    const query = parseListQuery(params, WALLET_TRANSACTION_LIST, cursors);
    const found = await this.reads.list<WalletTransactionResource>(context, WALLET_TRANSACTIONS, { ...query, where: [{ field: 'wallet_id', op: 'eq', value: walletId }, ...(query.where ?? [])] });
    return toPage(found, query, (transaction) => transaction, cursors);
  }
}
