import { Inject, Injectable } from '@nestjs/common';
import type { RecordedEvent } from '@tally/eventstore';
import type { RequestContext } from '@tally/cells';
import { asEventOf, Clocks, CommandRuntime, Commands, type Reaction } from '@tally/runtime';
import { walletTopUps, type RecordAutoTopUpOutcome, type WalletAutoTopUpTriggered } from '@tally/wallets';
import { paymentMethodAggregate } from './payment-method.aggregate';
import { PAYMENT_PROVIDER, type ChargeOutcome, type PaymentProvider } from './provider/payment-provider.port';

type ChargeWalletTopUp = { type: 'ChargeWalletTopUp'; data: WalletAutoTopUpTriggered['data'] };
type TopUpOutcome = RecordAutoTopUpOutcome['data']['outcome'];

/**
 * A wallet's automatic top-up, charged off-session to the customer's payment method through the
 * provider port, its outcome sent back to the wallet. The provider's idempotency key is the top-up's
 * id (derived by the wallet from the debit that triggered it), so a redelivered event or a crash
 * between the charge and its record charges once and records the first answer.
 */
@Injectable()
export class WalletTopUpReaction implements Reaction<ChargeWalletTopUp> {
  readonly name = 'wallet_top_up';
  readonly streamPrefixes = ['wallet-'];

  constructor(
    private readonly runtime: CommandRuntime,
    private readonly commands: Commands,
    private readonly clocks: Clocks,
    @Inject(PAYMENT_PROVIDER) private readonly provider: PaymentProvider,
  ) {}

  commandOf(event: RecordedEvent): { lane: string; command: ChargeWalletTopUp } | undefined {
    if (event.type !== 'WalletAutoTopUpTriggered') return undefined;
    const { data } = asEventOf<WalletAutoTopUpTriggered>(event);
    return { lane: data.wallet_id, command: { type: 'ChargeWalletTopUp', data } };
  }

  async dispatch({ data }: ChargeWalletTopUp, context: RequestContext): Promise<void> {
    const outcome = await this.charged(context, data);
    await this.commands.send(walletTopUps, data.wallet_id, (now) => ({ type: 'RecordAutoTopUpOutcome', data: { wallet_id: data.wallet_id, top_up_id: data.top_up_id, outcome, now } }), context);
  }

  private async charged(context: RequestContext, { customer_id, payment_method_id, amount, currency, top_up_id }: WalletAutoTopUpTriggered['data']): Promise<TopUpOutcome> {
    const cell = this.runtime.cellOf(context);
    const { state: method } = await this.runtime.load(cell, paymentMethodAggregate, payment_method_id, context);
    if (method.status === 'none' || method.status === 'detached' || method.customerId !== customer_id) {
      return { status: 'failed', code: 'payment_method_unusable', message: `Payment method ${payment_method_id} is not attached to customer ${customer_id}` };
    }
    if (method.status === 'expired') return { status: 'failed', code: 'expired_card', message: `Payment method ${payment_method_id} has expired` };
    const now = (await this.clocks.now(cell, context.clockId)).toISOString();
    return outcomeOf(await this.provider.charge({ providerRef: method.providerRef, amount, currency, now, idempotencyKey: `wallet_top_up:${top_up_id}` }));
  }
}

/** A top-up is off-session: a charge that needs the customer (3-D Secure) or settles days later (a bank debit) does not top up. */
function outcomeOf(charge: ChargeOutcome): TopUpOutcome {
  switch (charge.status) {
    case 'succeeded':
      return { status: 'succeeded', provider_payment_id: charge.providerPaymentId };
    case 'failed':
      return { status: 'failed', code: charge.error.code, message: charge.error.provider_message };
    case 'requires_action':
      return { status: 'failed', code: 'authentication_required', message: 'The payment method asks the customer to authenticate; an automatic top-up cannot' };
    case 'processing':
      return { status: 'failed', code: 'payment_method_unsupported', message: 'The payment method settles later (a bank debit); an automatic top-up needs one that pays at once' };
  }
}
