import { Injectable } from '@nestjs/common';
import type { RecordedEvent } from '@tally/eventstore';
import type { RequestContext } from '@tally/cells';
import { CustomerPaymentMethods } from '@tally/customers';
import { asEventOf, type Reaction } from '@tally/runtime';
import type { PaymentMethodAttached, PaymentMethodDetached } from './domain/payment-method.events';

export const ATTACHMENT_REACTION = 'payment_method_attachment';

type RecordOnCustomer = {
  type: 'RecordPaymentMethodOnCustomer';
  data: { customer_id: string; payment_method_id: string; change: 'attached' | 'detached'; set_as_default: boolean };
};

/**
 * The customer keeps the list of its payment methods (its default must be one of them). The
 * request that attaches or detaches a method records it on the customer itself, under this
 * reaction's command id; the reaction does it again from the method's event, which changes
 * nothing, unless the request died between its two appends.
 */
@Injectable()
export class PaymentMethodAttachmentReaction implements Reaction<RecordOnCustomer> {
  readonly name = ATTACHMENT_REACTION;
  readonly streamPrefixes = ['payment_method-'];

  constructor(private readonly customerMethods: CustomerPaymentMethods) {}

  commandOf(event: RecordedEvent) {
    if (event.type === 'PaymentMethodAttached') {
      const { customer_id, payment_method_id, set_as_default } = asEventOf<PaymentMethodAttached>(event).data;
      return { lane: customer_id, command: { type: 'RecordPaymentMethodOnCustomer' as const, data: { customer_id, payment_method_id, change: 'attached' as const, set_as_default } } };
    }
    if (event.type === 'PaymentMethodDetached') {
      const { customer_id, payment_method_id } = asEventOf<PaymentMethodDetached>(event).data;
      return { lane: customer_id, command: { type: 'RecordPaymentMethodOnCustomer' as const, data: { customer_id, payment_method_id, change: 'detached' as const, set_as_default: false } } };
    }
    return undefined;
  }

  /** The customer records the attach or the detach (once: the context carries the command id). */
  async dispatch({ data }: RecordOnCustomer, context: RequestContext): Promise<void> {
    const { customer_id, payment_method_id, change, set_as_default } = data;
    if (change === 'attached') await this.customerMethods.recordAttached(context, { customer_id, payment_method_id, set_as_default });
    else await this.customerMethods.recordDetached(context, { customer_id, payment_method_id });
  }
}
