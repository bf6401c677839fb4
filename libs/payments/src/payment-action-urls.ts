import { Inject, Injectable } from '@nestjs/common';
import { DomainError, type Clock } from '@tally/kernel';
import { ResourceReads } from '@tally/runtime';
import { CLOCK, type RequestContext, type SignedLink } from '@tally/cells';
import { PaymentActionLinks } from './payment-action-links';
import { paymentResource } from './payment.resource';

/** Fresh links to the hosted page where the customer completes a payment's action. */
@Injectable()
export class PaymentActionUrls {
  constructor(
    private readonly resources: ResourceReads,
    private readonly links: PaymentActionLinks,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  /** The payment's, while it waits for the customer on the hosted page (`payment.no_action` otherwise). */
  async of(context: RequestContext, paymentId: string): Promise<SignedLink & { payment_id: string }> {
    const { status, next_action } = (await this.resources.retrieve(paymentResource, context, paymentId)).resource;
    if (status !== 'requires_action' || next_action?.type !== 'redirect_to_url') {
      throw DomainError.conflict('payment.no_action', `Payment ${paymentId} is ${status}; it has no hosted action for the customer`);
    }
    return { payment_id: paymentId, ...this.links.sign(context, paymentId, this.clock.now()) };
  }
}
