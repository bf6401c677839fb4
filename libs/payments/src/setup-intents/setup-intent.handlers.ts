import { randomBytes } from 'node:crypto';
import { Inject } from '@nestjs/common';
import { Command, CommandBus, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import type { IdGenerator, Metadata } from '@tally/kernel';
import { CommandRuntime } from '@tally/runtime';
import { ID_GENERATOR, onClockOf, type RequestContext } from '@tally/cells';
import { customerAggregate } from '@tally/customers';
import { confirmableSetupIntent } from '../domain/setup-intent.decider';
import type { PaymentMethodType } from '../domain/payment-method.events';
import type { SetupIntentUsage } from '../domain/setup-intent.events';
import { AttachPaymentMethodCommand } from '../payment-method.handlers';
import { setupIntentAggregate } from './setup-intent.aggregate';
import type { SetupIntentResource } from './setup-intent.view';

export class CreateSetupIntentCommand extends Command<SetupIntentResource> {
  constructor(
    readonly context: RequestContext,
    readonly input: { customer_id: string; payment_method_types: PaymentMethodType[]; usage: SetupIntentUsage; set_as_default: boolean; description: string | null; metadata: Metadata },
  ) {
    super();
  }
}

export class ConfirmSetupIntentCommand extends Command<SetupIntentResource> {
  constructor(
    readonly context: RequestContext,
    readonly setupIntentId: string,
    readonly method: { type: PaymentMethodType; token: string },
  ) {
    super();
  }
}

export class CancelSetupIntentCommand extends Command<SetupIntentResource> {
  constructor(
    readonly context: RequestContext,
    readonly setupIntentId: string,
    readonly reason: string | null,
  ) {
    super();
  }
}

@CommandHandler(CreateSetupIntentCommand)
export class CreateSetupIntentHandler implements ICommandHandler<CreateSetupIntentCommand, SetupIntentResource> {
  constructor(
    private readonly runtime: CommandRuntime,
    @Inject(ID_GENERATOR) private readonly ids: IdGenerator,
  ) {}

  async execute({ context, input }: CreateSetupIntentCommand): Promise<SetupIntentResource> {
    const customer = await this.runtime.load(this.runtime.cellOf(context), customerAggregate, input.customer_id, context);
    if (customer.state.status !== 'active') throw customerAggregate.notFound(input.customer_id);
    const id = this.ids.next('seti');
    const data = { setup_intent_id: id, ...input, client_secret: `${id}_secret_${randomBytes(18).toString('base64url')}` };
    const onClock = onClockOf(context, customer.clockId);
    return (await this.runtime.execute(setupIntentAggregate, id, { type: 'CreateSetupIntent', data }, onClock, { newStream: true })).resource!;
  }
}

@CommandHandler(ConfirmSetupIntentCommand)
export class ConfirmSetupIntentHandler implements ICommandHandler<ConfirmSetupIntentCommand, SetupIntentResource> {
  constructor(
    private readonly runtime: CommandRuntime,
    private readonly commands: CommandBus,
  ) {}

  /** The token is attached as any method is (the same checks and refusals), then the intent records it. */
  async execute({ context, setupIntentId, method }: ConfirmSetupIntentCommand): Promise<SetupIntentResource> {
    const loaded = await this.runtime.load(this.runtime.cellOf(context), setupIntentAggregate, setupIntentId, context);
    const intent = confirmableSetupIntent(loaded.state, setupIntentId, method.type);
    const attached = await this.commands.execute(
      new AttachPaymentMethodCommand(context, intent.customerId, { type: method.type, token: method.token, set_as_default: intent.setAsDefault, billing_address: null, metadata: {} }),
    );
    const data = { setup_intent_id: setupIntentId, payment_method_id: attached.method.id };
    return (await this.runtime.execute(setupIntentAggregate, setupIntentId, { type: 'RecordSetupIntentSuccess', data }, context)).resource!;
  }
}

@CommandHandler(CancelSetupIntentCommand)
export class CancelSetupIntentHandler implements ICommandHandler<CancelSetupIntentCommand, SetupIntentResource> {
  constructor(private readonly runtime: CommandRuntime) {}

  async execute({ context, setupIntentId, reason }: CancelSetupIntentCommand): Promise<SetupIntentResource> {
    return (await this.runtime.execute(setupIntentAggregate, setupIntentId, { type: 'CancelSetupIntent', data: { setup_intent_id: setupIntentId, reason } }, context)).resource!;
  }
}

export const setupIntentCommandHandlers = [CreateSetupIntentHandler, ConfirmSetupIntentHandler, CancelSetupIntentHandler];
