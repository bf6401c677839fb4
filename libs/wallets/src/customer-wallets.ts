import { Inject, Injectable } from '@nestjs/common';
import { customerAggregate } from '@tally/customers';
import { ID_GENERATOR, onClockOf, type RequestContext } from '@tally/cells';
import type { IdGenerator } from '@tally/kernel';
import { CommandRuntime, Commands, type CommandOutcome } from '@tally/runtime';
import { customerWalletsAggregate } from './customer-wallets.aggregate';
import { transactionOf, WALLET_ID_PREFIX, type CreateWallet, type CreditWallet, type WalletState } from './domain/wallet.decider';
import type { WalletTransaction } from './domain/wallet.events';
import { walletAggregate } from './wallet.aggregate';
import type { WalletResource } from './wallet.view';

/** A credit as another context asks for it: to the customer's wallet in `currency`, created when missing. */
export type CustomerWalletCredit = Omit<CreditWallet['data'], 'wallet_id' | 'external_id' | 'now'> & { customer_id: string; currency: string };

/**
 * What wallets publish to the other contexts: the customer's wallet in a currency (from the
 * customer's wallet index, a write-side stream, never a read model), made when missing, and a
 * credit to it.
 */
@Injectable()
export class CustomerWallets {
  constructor(
    private readonly runtime: CommandRuntime,
    private readonly commands: Commands,
    @Inject(ID_GENERATOR) private readonly ids: IdGenerator,
  ) {}

  async walletOf(context: RequestContext, customerId: string, currency: string): Promise<string | undefined> {
    const { state } = await this.runtime.load(this.runtime.cellOf(context), customerWalletsAggregate, customerId, context);
    return state.get(currency);
  }

  /** The customer's wallet in `currency`, created (empty, no auto top-up) when missing; two racing callers get one wallet. */
  async ensureWallet(context: RequestContext, customerId: string, currency: string): Promise<string> {
    const fields = { auto_top_up: null, drift_floor: null, metadata: {} };
    return (await this.open(context, { wallet_id: this.ids.next(WALLET_ID_PREFIX), customer_id: customerId, currency, ...fields })).walletId;
  }

  /**
   * Registers `data.wallet_id` as the customer's wallet in its currency unless one is already, and
   * creates the registered wallet's stream (again, if a crash came between the two). `created` is
   * false when the currency had another wallet already.
   */
  async open(context: RequestContext, data: CreateWallet['data']): Promise<{ walletId: string; created: boolean; outcome: CommandOutcome<WalletState, WalletResource> }> {
    const customer = await this.runtime.load(this.runtime.cellOf(context), customerAggregate, data.customer_id, context);
    if (customer.state.status !== 'active') throw customerAggregate.notFound(data.customer_id);
    const onClock = onClockOf(context, customer.clockId);
    const registered = await this.commands.send(customerWalletsAggregate, data.customer_id, { type: 'RegisterCustomerWallet', data }, onClock);
    const walletId = registered.state.get(data.currency)!;
    const created = walletId === data.wallet_id;
    const creation = created ? data : { wallet_id: walletId, customer_id: data.customer_id, currency: data.currency, auto_top_up: null, drift_floor: null, metadata: {} };
    const outcome = await this.commands.send(walletAggregate, walletId, { type: 'CreateWallet', data: creation }, onClock);
    return { walletId, created: created || outcome.appended.length > 0, outcome };
  }

  /** Credits the customer's wallet in `currency` (created when missing); answers the transaction posted under `transaction_id`, now or before. */
  async credit(context: RequestContext, request: CustomerWalletCredit): Promise<WalletTransaction> {
    const { customer_id, currency, ...posting } = request;
    const walletId = await this.ensureWallet(context, customer_id, currency);
    const command = (now: string): CreditWallet => ({ type: 'CreditWallet', data: { ...posting, wallet_id: walletId, external_id: null, now } });
    const { state } = await this.commands.send(walletAggregate, walletId, command, context);
    return transactionOf(state, request.transaction_id)!;
  }
}
