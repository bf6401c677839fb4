import { Inject } from '@nestjs/common';
import { Query, QueryHandler, type IQueryHandler } from '@nestjs/cqrs';
import { DomainError } from '@tally/kernel';
import { ScopedReads, type ListPage, type ListSpec } from '@tally/runtime';
import { CLOCK, type RequestContext, type SignedLink } from '@tally/cells';
import type { Clock } from '@tally/kernel';
import { paymentNotFound } from './domain/payment.decider';
import { PAYMENT_STATUSES } from './dto/payment.response';
import { PaymentActionLinks } from './payment-action-links';
import { paymentView, type PaymentResource } from './payment.view';

export const PAYMENT_LIST: ListSpec = {
  sortable: ['created_at'],
  filters: {
    status: { ops: ['eq', 'in'], values: PAYMENT_STATUSES },
    invoice_id: { ops: ['eq'] },
    customer_id: { ops: ['eq'] },
    created_at: { ops: ['gte', 'gt', 'lte', 'lt'], type: 'timestamp' },
  },
};

export const PAYMENT_INDEXES = [
  { fields: ['tenant_id', 'environment', 'created_at'] },
  { fields: ['tenant_id', 'environment', 'status', 'created_at'] },
  { fields: ['tenant_id', 'environment', 'invoice_id', 'created_at'] },
  { fields: ['tenant_id', 'environment', 'customer_id', 'created_at'] },
];

export class GetPaymentQuery extends Query<{ payment: PaymentResource; revision: number }> {
  constructor(
    readonly context: RequestContext,
    readonly paymentId: string,
  ) {
    super();
  }
}

export class ListPaymentsQuery extends Query<ListPage<PaymentResource>> {
  constructor(
    readonly context: RequestContext,
    readonly params: Record<string, unknown>,
  ) {
    super();
  }
}

/** A fresh link to the hosted page where the customer completes the payment's action. */
export class GetPaymentActionUrlQuery extends Query<SignedLink & { payment_id: string }> {
  constructor(
    readonly context: RequestContext,
    readonly paymentId: string,
  ) {
    super();
  }
}

@QueryHandler(GetPaymentQuery)
export class GetPaymentHandler implements IQueryHandler<GetPaymentQuery, { payment: PaymentResource; revision: number }> {
  constructor(private readonly reads: ScopedReads) {}

  async execute({ context, paymentId }: GetPaymentQuery): Promise<{ payment: PaymentResource; revision: number }> {
    const found = await this.reads.retrieve<PaymentResource>(context, paymentView.collection, paymentId);
    if (!found) throw paymentNotFound(paymentId);
    return { payment: found.resource, revision: found.revision };
  }
}

@QueryHandler(ListPaymentsQuery)
export class ListPaymentsHandler implements IQueryHandler<ListPaymentsQuery, ListPage<PaymentResource>> {
  constructor(private readonly reads: ScopedReads) {}

  execute({ context, params }: ListPaymentsQuery): Promise<ListPage<PaymentResource>> {
    return this.reads.page<PaymentResource>(context, paymentView.collection, params, PAYMENT_LIST);
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

export const paymentQueryHandlers = [GetPaymentHandler, ListPaymentsHandler, GetPaymentActionUrlHandler];
