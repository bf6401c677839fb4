import { Inject } from '@nestjs/common';
import { Query, QueryHandler, type IQueryHandler } from '@nestjs/cqrs';
import { DomainError } from '@tally/kernel';
import { ScopedReads } from '@tally/runtime';
import { CLOCK, type RequestContext, type SignedLink } from '@tally/cells';
import type { Clock } from '@tally/kernel';
import { paymentNotFound } from './domain/payment.decider';
import { PaymentActionLinks } from './payment-action-links';
import { paymentView, type PaymentResource } from './payment.view';

/** A fresh link to the hosted page where the customer completes the payment's action. */
export class GetPaymentActionUrlQuery extends Query<SignedLink & { payment_id: string }> {
  constructor(
    readonly context: RequestContext,
    readonly paymentId: string,
  ) {
    super();
  }
}

@QueryHandler(GetPaymentActionUrlQuery)
export class GetPaymentActionUrlHandler implements IQueryHandler<GetPaymentActionUrlQuery, SignedLink & { payment_id: string }> {
  constructor(
    private readonly reads: ScopedReads,
    private readonly links: PaymentActionLinks,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ context, paymentId }: GetPaymentActionUrlQuery): Promise<SignedLink & { payment_id: string }> {
    const found = await this.reads.retrieve<PaymentResource>(context, paymentView.collection, paymentId);
    if (!found) throw paymentNotFound(paymentId);
    const { status, next_action } = found.resource;
    if (status !== 'requires_action' || next_action?.type !== 'redirect_to_url') {
      throw DomainError.conflict('payment.no_action', `Payment ${paymentId} is ${status}; it has no hosted action for the customer`);
    }
    return { payment_id: paymentId, ...this.links.sign(context, paymentId, this.clock.now()) };
  }
}

export const paymentQueryHandlers = [GetPaymentActionUrlHandler];
