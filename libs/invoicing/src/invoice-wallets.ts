import { Injectable } from '@nestjs/common';
import type { RequestContext } from '@tally/cells';
import Big from 'big.js';
import { CommandRuntime } from '@tally/runtime';
import { CustomerWallets, walletPostings } from '@tally/wallets';
import type { FinalizationWallet } from './domain/invoice.decider';

/**
 * The customer's wallet an invoice is finalised with: looked up in the wallets' write-side index
 * (a customer without one costs that lookup only), and whether it has a balance to settle from.
 * Reads the wallet's stream, never a read model.
 */
@Injectable()
export class InvoiceWallets {
  constructor(
    private readonly runtime: CommandRuntime,
    private readonly wallets: CustomerWallets,
  ) {}

  async of(context: RequestContext, customerId: string, currency: string): Promise<FinalizationWallet | null> {
    const id = await this.wallets.walletOf(context, customerId, currency);
    return id ? { id, funded: await this.isFunded(context, id) } : null;
  }

  /** Whether the wallet has a balance to settle from. */
  async isFunded(context: RequestContext, walletId: string): Promise<boolean> {
    const { state } = await this.runtime.load(this.runtime.cellOf(context), walletPostings, walletId, context);
    return state.status === 'active' && new Big(state.balance).gt(0);
  }
}
