import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { CommandRuntime } from '@tally/runtime';
import type { RequestContext } from '@tally/cells';
import type { TaxLocation } from './domain/tax';
import { taxSettingsAggregate, taxSettingsIdOf } from './tax-settings.aggregate';
import type { TaxSettingsResource } from './tax-settings.view';

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

@CommandHandler(SetTaxOriginCommand)
export class SetTaxOriginHandler implements ICommandHandler<SetTaxOriginCommand, TaxSettingsRead> {
  constructor(private readonly runtime: CommandRuntime) {}

  async execute({ context, origin }: SetTaxOriginCommand): Promise<TaxSettingsRead> {
    const settings_id = taxSettingsIdOf(context);
    const { resource, revision } = await this.runtime.execute(taxSettingsAggregate, settings_id, { type: 'SetTaxOrigin', data: { settings_id, origin } }, context);
    return { settings: resource!, revision };
  }
}

export const taxSettingsHandlers = [SetTaxOriginHandler];
