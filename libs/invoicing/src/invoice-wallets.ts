import { Injectable } from '@nestjs/common';
import type { RequestContext } from '@tally/cells';
import { CustomerWallets } from '@tally/wallets';
import type { FinalizationWallet } from './domain/invoice.decider';

/**
 * The customer's wallet an invoice is finalised with: looked up in the wallets' write-side index
 * (a customer without one costs that lookup only), and whether it has a balance to settle from.
 */
@Injectable()
export class InvoiceWallets {
  constructor(private readonly wallets: CustomerWallets) {}

  async of(context: RequestContext, customerId: string, currency: string): Promise<FinalizationWallet | null> {
    const id = await this.wallets.walletOf(context, customerId, currency);
    if (!id) return null;
    return { id, funded: await this.wallets.isFunded(context, id) };
  }
}
