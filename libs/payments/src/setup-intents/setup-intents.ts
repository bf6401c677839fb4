import { randomBytes } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import type { IdGenerator, Metadata } from '@tally/kernel';
import { CommandRuntime, Commands } from '@tally/runtime';
import { ID_GENERATOR, onClockOf, type RequestContext } from '@tally/cells';
import { customerAggregate } from '@tally/customers';
import { confirmableSetupIntent } from '../domain/setup-intent.decider';
import type { PaymentMethodType } from '../domain/payment-method.events';
import type { SetupIntentUsage } from '../domain/setup-intent.events';
import { PaymentMethods } from '../payment-methods';
import { setupIntentAggregate } from './setup-intent.aggregate';
import type { SetupIntentResource } from './setup-intent.view';

/** The setup intent's steps that reach beyond it: created for an active customer, confirmed by attaching the token's method. */
@Injectable()
export class SetupIntents {
  constructor(
    private readonly runtime: CommandRuntime,
    private readonly commands: Commands,
    private readonly methods: PaymentMethods,
    @Inject(ID_GENERATOR) private readonly ids: IdGenerator,
  ) {}

  /** On the customer's clock. */
  async create(
    context: RequestContext,
    input: { customer_id: string; payment_method_types: PaymentMethodType[]; usage: SetupIntentUsage; set_as_default: boolean; description: string | null; metadata: Metadata },
  ): Promise<SetupIntentResource> {
    const customer = await this.runtime.load(this.runtime.cellOf(context), customerAggregate, input.customer_id, context);
    if (customer.state.status !== 'active') throw customerAggregate.notFound(input.customer_id);
    const id = this.ids.next('seti');
    const data = { setup_intent_id: id, ...input, client_secret: `${id}_secret_${randomBytes(18).toString('base64url')}` };
    const onClock = onClockOf(context, customer.clockId);
    return (await this.commands.send(setupIntentAggregate, id, { type: 'CreateSetupIntent', data }, onClock, { newStream: true })).resource!;
  }

  /** The token is attached as any method is (the same checks and refusals), then the intent records it. */
  async confirm(context: RequestContext, setupIntentId: string, method: { type: PaymentMethodType; token: string }): Promise<SetupIntentResource> {
    const loaded = await this.runtime.load(this.runtime.cellOf(context), setupIntentAggregate, setupIntentId, context);
    const intent = confirmableSetupIntent(loaded.state, setupIntentId, method.type);
    const attached = await this.methods.attach(context, intent.customerId, { type: method.type, token: method.token, set_as_default: intent.setAsDefault, billing_address: null, metadata: {} });
    const data = { setup_intent_id: setupIntentId, payment_method_id: attached.method.id };
    return (await this.commands.send(setupIntentAggregate, setupIntentId, { type: 'RecordSetupIntentSuccess', data }, context)).resource!;
  }
}
