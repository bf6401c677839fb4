import { Body, Controller, Get, Patch, Query, Res } from '@nestjs/common';
import { ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import type { Response } from 'express';
import { API_KEY_AUTH, API_KEY_PROBLEMS, ApiAuthenticated, ApiProblemResponses, ApiRetrieve, ApiTag, Ctx, withRevision } from '@tally/http';
import { Commands, ResourceReads } from '@tally/runtime';
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
  constructor(
    private readonly commands: Commands,
    private readonly resources: ResourceReads,
  ) {}

  @Get()
  @ApiRetrieve({
    noun: 'tax settings',
    summary: 'Retrieve the tax settings',
    description: 'Where you sell from; `pending`, and no tax calculated, until an origin is set. With `as_of`, as they were at that moment, rebuilt from their events (`pending` before the first origin).',
    type: TaxSettingsResponse,
    headers: ETAG,
    problems: {},
  })
  async retrieve(@Ctx() context: RequestContext, @Query('as_of') asOf: unknown, @Res({ passthrough: true }) response: Response): Promise<TaxSettingsResource> {
    const id = taxSettingsIdOf(context);
    const found = (await this.resources.find(taxSettingsResource, context, id, asOf)) ?? { resource: pendingTaxSettings(id, context.environment === 'live'), revision: -1 };
    return withRevision(response, found).resource;
  }

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
