import { Query, QueryHandler, type IQueryHandler } from '@nestjs/cqrs';
import { ScopedReads } from '@tally/runtime';
import type { RequestContext } from '@tally/cells';
import { taxSettingsIdOf } from './tax-settings.aggregate';
import { pendingTaxSettings, taxSettingsView, type TaxSettingsResource } from './tax-settings.view';

export interface TaxSettingsRead {
  settings: TaxSettingsResource;
  revision: number;
}

export class GetTaxSettingsQuery extends Query<TaxSettingsRead> {
  constructor(readonly context: RequestContext) {
    super();
  }
}

@QueryHandler(GetTaxSettingsQuery)
export class GetTaxSettingsHandler implements IQueryHandler<GetTaxSettingsQuery, TaxSettingsRead> {
  constructor(private readonly reads: ScopedReads) {}

  async execute({ context }: GetTaxSettingsQuery): Promise<TaxSettingsRead> {
    const id = taxSettingsIdOf(context);
    const found = await this.reads.retrieve<TaxSettingsResource>(context, taxSettingsView.collection, id);
    return found ? { settings: found.resource, revision: found.revision } : { settings: pendingTaxSettings(id, context.environment === 'live'), revision: -1 };
  }
}

