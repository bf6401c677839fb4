import { Inject, Injectable } from '@nestjs/common';
import { customerAggregate } from '@tally/customers';
import { ID_GENERATOR, type RequestContext } from '@tally/cells';
import { DomainError, type IdGenerator } from '@tally/kernel';
import { CommandRuntime, Commands, type CommandOutcome } from '@tally/runtime';
import { CustomerWallets } from './customer-wallets';
import {
  transactionOf,
  transactionOfExternalId,
  WALLET_ID_PREFIX,
  WALLET_TRANSACTION_ID_PREFIX,
  walletDecider,
  type CreateWallet,
  type CreditWallet,
  type DebitWallet,
  type UpdateWallet,
  type WalletState,
} from './domain/wallet.decider';
import { walletAmount } from './domain/wallet-amounts';
import type { WalletTransaction } from './domain/wallet.events';
import { walletAggregate } from './wallet.aggregate';
import { assertCustomersMethod } from './wallet-payment-method';
import { WalletTurns } from './wallet-turns';
import { transactionResource, type WalletResource, type WalletTransactionResource } from './wallet.view';

type Written = CommandOutcome<WalletState, WalletResource>;

/** A credit or debit as a request states it. */
export type PostingInput = { amount: string; external_id: string | null; description: string | null } & (
  | { type: 'credit'; reason: CreditWallet['data']['reason'] }
  | { type: 'debit'; reason: DebitWallet['data']['reason'] }
);

/** The wallet operations of the API that read beyond one command: the customer, its payment methods, the transaction a replay answers. */
@Injectable()
export class WalletOperations {
  constructor(
    private readonly runtime: CommandRuntime,
    private readonly commands: Commands,
    private readonly wallets: CustomerWallets,
    private readonly turns: WalletTurns,
    @Inject(ID_GENERATOR) private readonly ids: IdGenerator,
  ) {}

  /** `POST /v1/customers/{id}/wallets`: 409 when the customer has a wallet in the currency already. */
  async create(context: RequestContext, data: Omit<CreateWallet['data'], 'wallet_id'>): Promise<Written> {
    const opened = await this.wallets.open(context, { ...data, wallet_id: this.ids.next(WALLET_ID_PREFIX) });
    if (!opened.created) throw DomainError.conflict('wallet.already_exists', `Customer ${data.customer_id} already has a ${data.currency} wallet, ${opened.walletId}`);
    return opened.outcome;
  }

  async update(context: RequestContext, data: UpdateWallet['data'], expectedRevision: number | undefined): Promise<Written> {
    const { state } = await this.runtime.load(this.runtime.cellOf(context), walletAggregate, data.wallet_id, context);
    if (state.status !== 'active') throw walletAggregate.notFound(data.wallet_id);
    // Its amounts are refused before its payment method, as a creation's are.
    walletDecider.decide({ type: 'UpdateWallet', data }, state);
    const customer = await this.runtime.load(this.runtime.cellOf(context), customerAggregate, state.customerId, context);
    assertCustomersMethod(customer.state, state.customerId, data.auto_top_up);
    return this.commands.send(walletAggregate, data.wallet_id, { type: 'UpdateWallet', data }, context, { expectedRevision });
  }

  /** A credit or debit of the API, under a new transaction id; a replayed `external_id` answers the transaction it posted. */
  async post(context: RequestContext, walletId: string, input: PostingInput): Promise<WalletTransactionResource> {
    const transaction_id = this.ids.next(WALLET_TRANSACTION_ID_PREFIX);
    const fields = { wallet_id: walletId, transaction_id, amount: input.amount, source: { type: 'manual' as const, id: null }, external_id: input.external_id, description: input.description };
    const { state } = await this.turns.post(
      context,
      walletId,
      input.type === 'credit'
        ? (now): CreditWallet => ({ type: 'CreditWallet', data: { ...fields, reason: input.reason, now } })
        : (now): DebitWallet => ({ type: 'DebitWallet', data: { ...fields, reason: input.reason, partial: false, now } }),
    );
    const posted = transactionOf(state, transaction_id) ?? transactionOfExternalId(state, input.external_id!)!;
    return this.shown(context, state, posted);
  }

  /** `POST /v1/customers/{id}/credit-grants`: a promotional credit to the customer's wallet in `currency`, created when missing. */
  async grant(context: RequestContext, customerId: string, input: { currency: string; amount: string; external_id: string | null; description: string | null }): Promise<WalletTransactionResource> {
    // Refused before a wallet is made for it: bad input writes nothing.
    walletAmount(input.amount, input.currency, 'amount');
    const walletId = await this.wallets.ensureWallet(context, customerId, input.currency);
    const transaction_id = this.ids.next(WALLET_TRANSACTION_ID_PREFIX);
    const data = { wallet_id: walletId, transaction_id, amount: input.amount, reason: 'promotional' as const, source: { type: 'grant' as const, id: null }, external_id: input.external_id, description: input.description };
    const { state } = await this.turns.post(context, walletId, (now): CreditWallet => ({ type: 'CreditWallet', data: { ...data, now } }));
    return this.shown(context, state, transactionOf(state, transaction_id) ?? transactionOfExternalId(state, input.external_id!)!);
  }

  private shown(context: RequestContext, state: WalletState, transaction: WalletTransaction): WalletTransactionResource {
    if (state.status !== 'active') throw new Error('a wallet that took a posting is active');
    return transactionResource({ wallet_id: state.id, customer_id: state.customerId, currency: state.currency, transaction }, context.environment === 'live');
  }
}
