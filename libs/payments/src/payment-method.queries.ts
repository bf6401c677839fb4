import { Query, QueryHandler, type IQueryHandler } from '@nestjs/cqrs';
import { keyedObject } from '@tally/kernel';
import { GetCustomerQuery } from '@tally/customers';
import { QueryBus } from '@nestjs/cqrs';
import { ScopedReads, type ListPage, type ListSpec } from '@tally/runtime';
import type { RequestContext } from '@tally/cells';
import { paymentMethodNotFound } from './domain/payment-method.decider';
import { PAYMENT_METHOD_TYPES } from './dto/payment-method.dto';
import { paymentMethodView, type PaymentMethodResource } from './payment-method.view';

export const PAYMENT_METHOD_LIST: ListSpec = {
  sortable: ['created_at'],
  filters: {
    type: { ops: ['eq', 'in'], values: PAYMENT_METHOD_TYPES },
    created_at: { ops: ['gte', 'gt', 'lte', 'lt'], type: 'timestamp' },
  },
};

/** The customer's methods are listed through `customer_id`, which the route sets and the client cannot. */
const CUSTOMER_METHODS: ListSpec = { ...PAYMENT_METHOD_LIST, filters: { ...PAYMENT_METHOD_LIST.filters, customer_id: { ops: ['eq'] } } };

export const PAYMENT_METHOD_INDEXES = [
  { fields: ['tenant_id', 'environment', 'created_at'] },
  { fields: ['tenant_id', 'environment', 'customer_id', 'created_at'] },
];

export class GetPaymentMethodQuery extends Query<{ method: PaymentMethodResource; revision: number }> {
  constructor(
    readonly context: RequestContext,
    readonly paymentMethodId: string,
  ) {
    super();
  }
}

export class ListPaymentMethodsQuery extends Query<ListPage<PaymentMethodResource>> {
  constructor(
    readonly context: RequestContext,
    readonly customerId: string,
    readonly params: Record<string, unknown>,
  ) {
    super();
  }
}

@QueryHandler(GetPaymentMethodQuery)
export class GetPaymentMethodHandler implements IQueryHandler<GetPaymentMethodQuery, { method: PaymentMethodResource; revision: number }> {
  constructor(private readonly reads: ScopedReads) {}

  async execute({ context, paymentMethodId }: GetPaymentMethodQuery): Promise<{ method: PaymentMethodResource; revision: number }> {
    const found = await this.reads.retrieve<PaymentMethodResource>(context, paymentMethodView.collection, paymentMethodId);
    if (!found) throw paymentMethodNotFound(paymentMethodId);
    return { method: found.resource, revision: found.revision };
  }
}

@QueryHandler(ListPaymentMethodsQuery)
export class ListPaymentMethodsHandler implements IQueryHandler<ListPaymentMethodsQuery, ListPage<PaymentMethodResource>> {
  constructor(
    private readonly reads: ScopedReads,
    private readonly queries: QueryBus,
  ) {}

  async execute({ context, customerId, params }: ListPaymentMethodsQuery): Promise<ListPage<PaymentMethodResource>> {
    await this.queries.execute(new GetCustomerQuery(context, customerId));
    const { customer_id: _ignored, ...rest } = params;
    const scoped = keyedObject<unknown>([...Object.entries(rest), ['customer_id', customerId]]);
    return this.reads.page<PaymentMethodResource>(context, paymentMethodView.collection, scoped, CUSTOMER_METHODS);
  }
}

export const paymentMethodQueryHandlers = [GetPaymentMethodHandler, ListPaymentMethodsHandler];
