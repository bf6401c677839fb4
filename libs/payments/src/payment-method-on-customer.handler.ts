import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import type { RequestContext } from '@tally/cells';
import { CustomerPaymentMethods } from '@tally/customers';

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
  constructor(private readonly customerMethods: CustomerPaymentMethods) {}

  async execute({ context, data }: RecordPaymentMethodOnCustomerCommand): Promise<void> {
    const { customer_id, payment_method_id, change, set_as_default } = data;
    if (change === 'attached') await this.customerMethods.recordAttached(context, { customer_id, payment_method_id, set_as_default });
    else await this.customerMethods.recordDetached(context, { customer_id, payment_method_id });
  }
}
