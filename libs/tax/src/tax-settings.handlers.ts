import { Command, CommandHandler, Query, QueryHandler, type ICommandHandler, type IQueryHandler } from '@nestjs/cqrs';
import { CommandRuntime, ScopedReads } from '@tally/runtime';
import type { RequestContext } from '@tally/cells';
import type { TaxLocation } from './domain/tax';
import { taxSettingsAggregate, taxSettingsIdOf } from './tax-settings.aggregate';
import { pendingTaxSettings, taxSettingsView, type TaxSettingsResource } from './tax-settings.view';

export interface TaxSettingsRead {
  settings: TaxSettingsResource;
  revision: number;
}

export class SetTaxOriginCommand extends Command<TaxSettingsRead> {
  constructor(
    readonly context: RequestContext,
    readonly origin: TaxLocation,
  ) {
    super();
  }
}

export class GetTaxSettingsQuery extends Query<TaxSettingsRead> {
  constructor(readonly context: RequestContext) {
    super();
  }
}

@CommandHandler(SetTaxOriginCommand)
export class SetTaxOriginHandler implements ICommandHandler<SetTaxOriginCommand, TaxSettingsRead> {
  constructor(private readonly runtime: CommandRuntime) {}

  async execute({ context, origin }: SetTaxOriginCommand): Promise<TaxSettingsRead> {
    const settings_id = taxSettingsIdOf(context);
    const { resource, revision } = await this.runtime.execute(taxSettingsAggregate, settings_id, { type: 'SetTaxOrigin', data: { settings_id, origin } }, context);
    return { settings: resource!, revision };
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

export const taxSettingsHandlers = [SetTaxOriginHandler, GetTaxSettingsHandler];
