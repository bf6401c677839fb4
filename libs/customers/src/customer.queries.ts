import { Query, QueryHandler, type IQueryHandler } from '@nestjs/cqrs';
import { CommandRuntime, instantParameter, ScopedReads, type ListPage, type ListSpec } from '@tally/runtime';
import type { RequestContext } from '@tally/cells';
import { customerAggregate } from './customer.aggregate';
import { customerView, type CustomerResource } from './customer.view';

export const CUSTOMER_LIST: ListSpec = {
  sortable: ['created_at', 'updated_at', 'email'],
  filters: {
    email: { ops: ['eq', 'in', 'starts'] },
    created_at: { ops: ['gte', 'gt', 'lte', 'lt'], type: 'timestamp' },
    updated_at: { ops: ['gte', 'gt', 'lte', 'lt'], type: 'timestamp' },
  },
};

export const CUSTOMER_INDEXES = [
  { fields: ['tenant_id', 'environment', 'created_at'] },
  { fields: ['tenant_id', 'environment', 'updated_at'] },
  { fields: ['tenant_id', 'environment', 'email'] },
];

export class GetCustomerQuery extends Query<{ customer: CustomerResource; revision: number }> {
  constructor(
    readonly context: RequestContext,
    readonly customerId: string,
    /** Rebuild the customer from the log as it was at this moment. */
    readonly asOf?: Date,
  ) {
    super();
  }
}

export class ListCustomersQuery extends Query<ListPage<CustomerResource>> {
  constructor(
    readonly context: RequestContext,
    readonly params: Record<string, unknown>,
  ) {
    super();
  }
}

const notFound = (id: string) => customerAggregate.notFound(id);

@QueryHandler(GetCustomerQuery)
export class GetCustomerHandler implements IQueryHandler<GetCustomerQuery, { customer: CustomerResource; revision: number }> {
  constructor(
    private readonly reads: ScopedReads,
    private readonly runtime: CommandRuntime,
  ) {}

  async execute({ context, customerId, asOf }: GetCustomerQuery): Promise<{ customer: CustomerResource; revision: number }> {
    const found = asOf ? await this.asOf(context, customerId, asOf) : await this.reads.retrieve<CustomerResource>(context, customerView.collection, customerId);
    if (!found) throw notFound(customerId);
    return { customer: found.resource, revision: found.revision };
  }

  /** The customer rebuilt from its events up to `at`; the revision is that of the last event folded in. */
  private async asOf(context: RequestContext, customerId: string, at: Date): Promise<{ resource: CustomerResource; revision: number } | undefined> {
    const { resource, revision } = await this.runtime.load(this.runtime.cellOf(context), customerAggregate, customerId, context, { asOf: at });
    return resource && { resource, revision };
  }
}

@QueryHandler(ListCustomersQuery)
export class ListCustomersHandler implements IQueryHandler<ListCustomersQuery, ListPage<CustomerResource>> {
  constructor(private readonly reads: ScopedReads) {}

  async execute({ context, params }: ListCustomersQuery): Promise<ListPage<CustomerResource>> {
    return this.reads.page<CustomerResource>(context, customerView.collection, params, CUSTOMER_LIST);
  }
}

export const customerQueryHandlers = [GetCustomerHandler, ListCustomersHandler];

export const parseAsOf = (raw: unknown): Date | undefined => (raw === undefined ? undefined : instantParameter('as_of', raw));
