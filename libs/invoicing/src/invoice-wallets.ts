import { Injectable } from '@nestjs/common';
import Big from 'big.js';
import type { RequestContext } from '@tally/cells';
import { CommandRuntime } from '@tally/runtime';
import { customerWalletIndex, walletPostings, type WalletState } from '@tally/wallets';
import type { FinalizationWallet } from './domain/invoice.decider';

/** Whose wallet, in which currency. */
export interface InvoiceWalletQuery {
  context: RequestContext;
  customerId: string;
  currency: string;
}

const funded = (state: WalletState): boolean => state.status === 'active' && new Big(state.balance).gt(0);

/**
 * The customer's wallet an invoice is finalised with: looked up in the wallets' write-side index
 * (a customer without one costs that lookup only; a page of invoices looks up its customers in
 * one batched read), and whether it has a balance to settle from. Reads the streams, never a read
 * model.
 */
@Injectable()
export class InvoiceWallets {
  constructor(private readonly runtime: CommandRuntime) {}

  async of(context: RequestContext, customerId: string, currency: string): Promise<FinalizationWallet | null> {
    const [wallet] = await this.ofEach([{ context, customerId, currency }]);
    return wallet;
  }

  /** For each query, in order: the wallet, or null when the customer has none in that currency. */
  async ofEach(queries: readonly InvoiceWalletQuery[]): Promise<(FinalizationWallet | null)[]> {
    const customers = new Map(queries.map(({ context, customerId }) => [customerId, { id: customerId, context }]));
    const indexes = await this.runtime.loadEach(customerWalletIndex, [...customers.values()]);
    const indexOf = new Map([...customers.keys()].map((customerId, i) => [customerId, indexes[i]]));
    const walletIds = queries.map(({ customerId, currency }) => {
      const index = indexOf.get(customerId)!;
      if (index.status === 'rejected') throw index.reason;
      return index.value.state.get(currency) ?? null;
    });
    const wallets = new Map(queries.flatMap(({ context }, i) => (walletIds[i] ? [[walletIds[i]!, { id: walletIds[i]!, context }] as const] : [])));
    const loads = await this.runtime.loadEach(walletPostings, [...wallets.values()]);
    const fundedOf = new Map([...wallets.keys()].map((walletId, i) => [walletId, loads[i]]));
    return walletIds.map((id) => {
      if (!id) return null;
      const load = fundedOf.get(id)!;
      if (load.status === 'rejected') throw load.reason;
      return { id, funded: funded(load.value.state) };
    });
  }

  /** Whether the wallet has a balance to settle from. */
  async isFunded(context: RequestContext, walletId: string): Promise<boolean> {
    const { state } = await this.runtime.load(this.runtime.cellOf(context), walletPostings, walletId, context);
    return funded(state);
  }
}
