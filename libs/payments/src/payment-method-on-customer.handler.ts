import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { CommandRuntime } from '@tally/runtime';
import type { RequestContext } from '@tally/cells';
import { customerAggregate, type CustomerCommand } from '@tally/customers';

export class RecordPaymentMethodOnCustomerCommand extends Command<void> {
  constructor(
    readonly context: RequestContext,
    readonly data: { customer_id: string; payment_method_id: string; change: 'attached' | 'detached'; set_as_default: boolean },
  ) {
    super();
  }
}

/** The attachment reaction's command: the customer records the attach or the detach (once: the context carries the command id). */
@CommandHandler(RecordPaymentMethodOnCustomerCommand)
export class RecordPaymentMethodOnCustomerHandler implements ICommandHandler<RecordPaymentMethodOnCustomerCommand, void> {
  constructor(private readonly runtime: CommandRuntime) {}

  async execute({ context, data }: RecordPaymentMethodOnCustomerCommand): Promise<void> {
    const { customer_id, payment_method_id, change, set_as_default } = data;
    const command: CustomerCommand =
      change === 'attached'
        ? { type: 'RecordPaymentMethodAttached', data: { customer_id, payment_method_id, set_as_default } }
        : { type: 'RecordPaymentMethodDetached', data: { customer_id, payment_method_id } };
    await this.runtime.execute(customerAggregate, customer_id, command, context);
  }
}
