import { Query, QueryHandler, type IQueryHandler } from '@nestjs/cqrs';
import { CommandRuntime, ScopedReads, type ListPage, type ListSpec } from '@tally/runtime';
import type { RequestContext } from '@tally/cells';
import { INVOICE_STATUSES } from './dto/invoice.response';
import { invoiceAggregate } from './invoice.aggregate';
import { invoiceView, type InvoiceResource } from './invoice.view';

export const INVOICE_LIST: ListSpec = {
  sortable: ['created_at', 'updated_at', 'due_at'],
  filters: {
    status: { ops: ['eq', 'in'], values: INVOICE_STATUSES },
    customer_id: { ops: ['eq', 'in'] },
    subscription_id: { ops: ['eq', 'in'] },
    number: { ops: ['eq', 'starts'] },
    due_at: { ops: ['gte', 'gt', 'lte', 'lt'], type: 'timestamp' },
    created_at: { ops: ['gte', 'gt', 'lte', 'lt'], type: 'timestamp' },
  },
};

export const INVOICE_INDEXES = [
  { fields: ['tenant_id', 'environment', 'created_at'] },
  { fields: ['tenant_id', 'environment', 'updated_at'] },
  { fields: ['tenant_id', 'environment', 'due_at'] },
  { fields: ['tenant_id', 'environment', 'customer_id', 'created_at'] },
  { fields: ['tenant_id', 'environment', 'subscription_id', 'created_at'] },
  { fields: ['tenant_id', 'environment', 'status', 'created_at'] },
  { fields: ['tenant_id', 'environment', 'number'] },
];

export class GetInvoiceQuery extends Query<{ invoice: InvoiceResource; revision: number }> {
  constructor(
    readonly context: RequestContext,
    readonly invoiceId: string,
    /** Rebuild the invoice from the log as it was at this moment. */
    readonly asOf?: Date,
  ) {
    super();
  }
}

export class ListInvoicesQuery extends Query<ListPage<InvoiceResource>> {
  constructor(
    readonly context: RequestContext,
    readonly params: Record<string, unknown>,
  ) {
    super();
  }
}

@QueryHandler(GetInvoiceQuery)
export class GetInvoiceHandler implements IQueryHandler<GetInvoiceQuery, { invoice: InvoiceResource; revision: number }> {
  constructor(
    private readonly reads: ScopedReads,
    private readonly runtime: CommandRuntime,
  ) {}

  async execute({ context, invoiceId, asOf }: GetInvoiceQuery): Promise<{ invoice: InvoiceResource; revision: number }> {
    const found = asOf
      ? await this.runtime.load(this.runtime.cellOf(context), invoiceAggregate, invoiceId, context, { asOf })
      : await this.reads.retrieve<InvoiceResource>(context, invoiceView.collection, invoiceId);
    if (!found?.resource) throw invoiceAggregate.notFound(invoiceId);
    return { invoice: found.resource, revision: found.revision };
  }
}

@QueryHandler(ListInvoicesQuery)
export class ListInvoicesHandler implements IQueryHandler<ListInvoicesQuery, ListPage<InvoiceResource>> {
  constructor(private readonly reads: ScopedReads) {}

  async execute({ context, params }: ListInvoicesQuery): Promise<ListPage<InvoiceResource>> {
    return this.reads.page<InvoiceResource>(context, invoiceView.collection, params, INVOICE_LIST);
  }
}

export const invoiceQueryHandlers = [GetInvoiceHandler, ListInvoicesHandler];
