import { Query, QueryHandler, type IQueryHandler } from '@nestjs/cqrs';
import { ScopedReads, parseListQuery, toPage, type ListPage, type ListSpec } from '@tally/runtime';
import type { RequestContext } from '@tally/cells';
import { customerAggregate } from './customer.aggregate';
import { customerView, type CustomerResource, type TaxIdResource } from './customer.view';
import { taxIdPage } from './tax-id-page';

export const TAX_ID_LIST: ListSpec = { sortable: ['created_at'], filters: {} };

export class ListTaxIdsQuery extends Query<ListPage<TaxIdResource>> {
  constructor(
    readonly context: RequestContext,
    readonly customerId: string,
    readonly params: Record<string, unknown>,
  ) {
    super();
  }
}

@QueryHandler(ListTaxIdsQuery)
export class ListTaxIdsHandler implements IQueryHandler<ListTaxIdsQuery, ListPage<TaxIdResource>> {
  constructor(private readonly reads: ScopedReads) {}

  async execute({ context, customerId, params }: ListTaxIdsQuery): Promise<ListPage<TaxIdResource>> {
    const cursors = this.reads.cursorsFor(context, `tax_ids:${customerId}`);
    const query = parseListQuery(params, TAX_ID_LIST, cursors);
    const found = await this.reads.retrieve<CustomerResource>(context, customerView.collection, customerId);
    if (!found) throw customerAggregate.notFound(customerId);
    return toPage(taxIdPage(found.resource.tax_ids, query), query, (taxId) => taxId, cursors);
  }
}
