import { Injectable } from '@nestjs/common';
import { parseListQuery, ResourceReads, ScopedReads, toPage, type ListPage, type ListSpec } from '@tally/runtime';
import type { RequestContext } from '@tally/cells';
import { customerResource } from './customer.resource';
import type { TaxIdResource } from './customer.view';
import { taxIdPage } from './tax-id-page';

export const TAX_ID_LIST: ListSpec = { sortable: ['created_at'], filters: {} };

/** A customer's tax IDs, paged from inside the customer's document (an unknown customer: its 404). */
@Injectable()
export class TaxIdList {
  constructor(
    private readonly reads: ScopedReads,
    private readonly resources: ResourceReads,
  ) {}

  async page(context: RequestContext, customerId: string, params: Record<string, unknown>): Promise<ListPage<TaxIdResource>> {
    const cursors = this.reads.cursorsFor(context, `tax_ids:${customerId}`);
    const query = parseListQuery(params, TAX_ID_LIST, cursors);
    const { resource: customer } = await this.resources.retrieve(customerResource, context, customerId);
    return toPage(taxIdPage(customer.tax_ids, query), query, (taxId) => taxId, cursors);
  }
}
