import { Inject, Injectable } from '@nestjs/common';
import { customerAggregate } from '@tally/customers';
import { ID_GENERATOR, onClockOf, type RequestContext } from '@tally/cells';
import type { IdGenerator } from '@tally/kernel';
import { CommandRuntime, Commands, type CommandOutcome } from '@tally/runtime';
import { customerWalletsAggregate } from './customer-wallets.aggregate';
import { transactionOf, WALLET_ID_PREFIX, walletDecider, type CreateWallet, type CreditWallet, type DebitWallet, type WalletState } from './domain/wallet.decider';
import type { WalletTransaction } from './domain/wallet.events';
import { walletAggregate } from './wallet.aggregate';
import { assertCustomersMethod } from './wallet-payment-method';
import type { WalletResource } from './wallet.view';

/** A credit as another context asks for it: to the customer's wallet in `currency`, created when missing. */
export type CustomerWalletCredit = Omit<CreditWallet['data'], 'wallet_id' | 'external_id' | 'now'> & { customer_id: string; currency: string };

/**
 * What wallets publish to the other contexts: the customer's wallet in a currency (from the
 * customer's wallet index, a write-side stream, never a read model), made when missing, a credit
 * to it, and a debit of a wallet.
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
   * creates the registered wallet's stream with `data`'s settings (again, if a crash came between
   * the two). `created` is false when the currency's wallet existed already. An invalid wallet (or
   * an automatic top-up by another customer's payment method) is refused before anything is written.
   */
  async open(context: RequestContext, data: CreateWallet['data']): Promise<{ walletId: string; created: boolean; outcome: CommandOutcome<WalletState, WalletResource> }> {
    walletDecider.decide({ type: 'CreateWallet', data }, walletDecider.initialState());
    const customer = await this.runtime.load(this.runtime.cellOf(context), customerAggregate, data.customer_id, context);
    if (customer.state.status !== 'active') throw customerAggregate.notFound(data.customer_id);
    assertCustomersMethod(customer.state, data.customer_id, data.auto_top_up);
    const onClock = onClockOf(context, customer.clockId);
    const registered = await this.commands.send(customerWalletsAggregate, data.customer_id, { type: 'RegisterCustomerWallet', data }, onClock);
    const walletId = registered.state.get(data.currency)!;
    const outcome = await this.commands.send(walletAggregate, walletId, { type: 'CreateWallet', data: { ...data, wallet_id: walletId } }, onClock);
    return { walletId, created: outcome.appended.length > 0, outcome };
  }

  /** Credits the customer's wallet in `currency` (created when missing); answers the transaction posted under `transaction_id`, now or before. */
  async credit(context: RequestContext, request: CustomerWalletCredit): Promise<WalletTransaction> {
    const { customer_id, currency, ...posting } = request;
    const walletId = await this.ensureWallet(context, customer_id, currency);
    const command = (now: string): CreditWallet => ({ type: 'CreditWallet', data: { ...posting, wallet_id: walletId, external_id: null, now } });
    const { state } = await this.commands.send(walletAggregate, walletId, command, context);
    return transactionOf(state, request.transaction_id)!;
  }

  /**
   * Debits a wallet (`partial`: what it holds, up to `amount`, as a settlement takes it), "now" on
   * the wallet's clock; answers the transaction posted under `transaction_id`, now or before.
   * Refused with 409 `wallet.insufficient_balance` as DebitWallet is.
   */
  async debit(context: RequestContext, request: Omit<DebitWallet['data'], 'now'>): Promise<WalletTransaction> {
    const command = (now: string): DebitWallet => ({ type: 'DebitWallet', data: { ...request, now } });
    const { state } = await this.commands.send(walletAggregate, request.wallet_id, command, context);
    return transactionOf(state, request.transaction_id)!;
  }
}
