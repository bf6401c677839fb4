import { Body, Controller, Patch, Res } from '@nestjs/common';
import { ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import type { Response } from 'express';
import { API_KEY_AUTH, API_KEY_PROBLEMS, ApiAuthenticated, ApiProblemResponses, ApiTag, Ctx, resourceController, withRevision } from '@tally/http';
import { Commands } from '@tally/runtime';
import type { RequestContext } from '@tally/cells';
import { TaxSettingsResponse, UpdateTaxSettingsDto } from './dto/tax-settings.dto';
import { taxSettingsAggregate, taxSettingsIdOf } from './tax-settings.aggregate';
import { pendingTaxSettings, type TaxSettingsResource } from './tax-settings.view';
import { taxSettingsResource } from './tax-settings.resource';
import { TAX_SECTION } from './tax.api-sections';

const ETAG = { ETag: { description: 'The settings’ revision (W/"-1" before any were set)', schema: { type: 'string' } } };

/** Stripe's tax settings: the seller's origin, per tenant and environment. */
@Controller('v1/tax/settings')
@ApiAuthenticated(API_KEY_AUTH)
@ApiTag(TAX_SECTION)
export class TaxSettingsController {
  constructor(private readonly commands: Commands) {}

  @Patch()
  @ApiOperation({
    summary: 'Set the tax origin',
    description: 'The country you sell from and, where taxes differ by region (Canada), the region; tax is calculated from then on.',
  })
  @ApiOkResponse({ type: TaxSettingsResponse, headers: ETAG })
  @ApiProblemResponses(API_KEY_PROBLEMS, { 400: ['tax.invalid_origin'], 409: ['request.concurrent_update'] })
  async update(@Ctx() context: RequestContext, @Body() body: UpdateTaxSettingsDto, @Res({ passthrough: true }) response: Response): Promise<TaxSettingsResource> {
    const origin = { country: body.origin.country, region: body.origin.region ?? null };
    const settings_id = taxSettingsIdOf(context);
    return withRevision(response, await this.commands.send(taxSettingsAggregate, settings_id, { type: 'SetTaxOrigin', data: { settings_id, origin } }, context)).resource!;
  }
}

/** The retrieve (with `as_of`), from the resource's definition: the settings are one per tenant and environment, `pending` until first set. */
export const TaxSettingsReadsController = resourceController(taxSettingsResource, {
  path: 'v1/tax/settings', tag: TAX_SECTION, noun: 'tax settings', type: TaxSettingsResponse, etag: ETAG, operations: 'TaxSettingsController',
  single: { idOf: taxSettingsIdOf, absent: (context) => pendingTaxSettings(taxSettingsIdOf(context), context.environment === 'live') },
  retrieve: {
    summary: 'Retrieve the tax settings',
    description: 'Where you sell from; `pending`, and no tax calculated, until an origin is set. With `as_of`, as they were at that moment, rebuilt from their events (`pending` before the first origin).',
    problems: {},
  },
});
