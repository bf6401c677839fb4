import { Injectable } from '@nestjs/common';
import { Command, CommandBus, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import type { CommandRejected, ProcessDecider, ProcessInput, ProcessOutput, TimerFired } from '@tally/kernel';
import { CommandRuntime, type ProcessManager } from '@tally/runtime';
import type { RequestContext } from '@tally/cells';
import { expiringNoticeAt } from './domain/card-expiry';
import type { PaymentMethodAttached } from './domain/payment-method.events';
import { paymentMethodAggregate } from './payment-method.aggregate';

type CardAttached = ProcessInput<'PaymentMethodAttached', { payment_method_id: string; expires_at: string }>;
type CardDetached = ProcessInput<'PaymentMethodDetached', { payment_method_id: string }>;
type MarkExpiry = { type: 'MarkCardExpiry'; data: { payment_method_id: string; expires_at: string; stage: 'expiring' | 'expired' } };

type State = { paymentMethodId: string | null; expiresAt: string | null };

const EXPIRING = 'expiring';
const EXPIRED = 'expired';

/**
 * One process per card: two timers on the customer's clock, `expiring` 30 days before the card
 * expires and `expired` when it does; detaching the card cancels both.
 */
export const cardExpiryDecider: ProcessDecider<State, CardAttached | CardDetached | TimerFired | CommandRejected, ProcessOutput<MarkExpiry>> = {
  initialState: () => ({ paymentMethodId: null, expiresAt: null }),
  evolve: (state, message) =>
    message.kind === 'input' && message.input.type === 'PaymentMethodAttached' ? { paymentMethodId: message.input.data.payment_method_id, expiresAt: message.input.data.expires_at } : state,
  decide(input, state) {
    switch (input.type) {
      case 'PaymentMethodAttached':
        if (state.expiresAt) return [];
        return [
          { kind: 'schedule', timerId: EXPIRING, dueAt: expiringNoticeAt(input.data.expires_at) },
          { kind: 'schedule', timerId: EXPIRED, dueAt: input.data.expires_at },
        ];
      case 'PaymentMethodDetached':
        return [
          { kind: 'cancel', timerId: EXPIRING },
          { kind: 'cancel', timerId: EXPIRED },
        ];
      case 'TimerFired': {
        const stage = input.data.timer_id === EXPIRING ? 'expiring' : input.data.timer_id === EXPIRED ? 'expired' : undefined;
        if (!stage || !state.paymentMethodId || !state.expiresAt) return [];
        return [{ kind: 'command', command: { type: 'MarkCardExpiry', data: { payment_method_id: state.paymentMethodId, expires_at: state.expiresAt, stage } } }];
      }
      default:
        return [];
    }
  },
};

export class MarkCardExpiryCommand extends Command<void> {
  constructor(
    readonly context: RequestContext,
    readonly data: MarkExpiry['data'],
  ) {
    super();
  }
}

@Injectable()
export class CardExpiryProcess implements ProcessManager<State, CardAttached | CardDetached, MarkExpiry> {
  readonly name = 'card_expiry';
  readonly streamPrefixes = ['payment_method-'];
  readonly decider = cardExpiryDecider;

  constructor(private readonly commands: CommandBus) {}

  route(event: { type: string; data: unknown; id: string }) {
    if (event.type === 'PaymentMethodAttached') {
      const { payment_method_id, expires_at } = (event as unknown as PaymentMethodAttached).data;
      if (!expires_at) return undefined;
      return { processId: payment_method_id, input: { id: event.id, type: 'PaymentMethodAttached' as const, data: { payment_method_id, expires_at } } };
    }
    if (event.type === 'PaymentMethodDetached') {
      const { payment_method_id } = event.data as { payment_method_id: string };
      return { processId: payment_method_id, input: { id: event.id, type: 'PaymentMethodDetached' as const, data: { payment_method_id } } };
    }
    return undefined;
  }

  async dispatch(command: MarkExpiry, context: RequestContext): Promise<void> {
    await this.commands.execute(new MarkCardExpiryCommand(context, command.data));
  }
}

@CommandHandler(MarkCardExpiryCommand)
export class MarkCardExpiryHandler implements ICommandHandler<MarkCardExpiryCommand, void> {
  constructor(private readonly runtime: CommandRuntime) {}

  async execute({ context, data }: MarkCardExpiryCommand): Promise<void> {
    const { payment_method_id, expires_at, stage } = data;
    const type = stage === 'expiring' ? 'MarkPaymentMethodExpiring' : 'MarkPaymentMethodExpired';
    await this.runtime.execute(paymentMethodAggregate, payment_method_id, { type, data: { payment_method_id, expires_at } }, context);
  }
}
