import { Body, Controller, Get, Patch, Res } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import type { Response } from 'express';
import { API_KEY_AUTH, API_KEY_PROBLEMS, ApiAuthenticated, ApiProblemResponses, ApiTag, Ctx, withRevision } from '@tally/http';
import { Commands } from '@tally/runtime';
import type { RequestContext } from '@tally/cells';
import { TaxSettingsResponse, UpdateTaxSettingsDto } from './dto/tax-settings.dto';
import { taxSettingsAggregate, taxSettingsIdOf } from './tax-settings.aggregate';
import { GetTaxSettingsQuery } from './tax-settings.queries';
import type { TaxSettingsResource } from './tax-settings.view';

const ETAG = { ETag: { description: 'The settings’ revision (W/"-1" before any were set)', schema: { type: 'string' } } };

/** Stripe's tax settings: the seller's origin, per tenant and environment. */
@Controller('v1/tax/settings')
@ApiAuthenticated(API_KEY_AUTH)
@ApiTag('tax')
export class TaxSettingsController {
  constructor(
    private readonly commands: Commands,
    private readonly queries: QueryBus,
  ) {}

  @Get()
  @ApiOperation({ summary: 'Retrieve the tax settings', description: 'Where you sell from; `pending`, and no tax calculated, until an origin is set.' })
  @ApiOkResponse({ type: TaxSettingsResponse, headers: ETAG })
  @ApiProblemResponses(API_KEY_PROBLEMS)
  async retrieve(@Ctx() context: RequestContext, @Res({ passthrough: true }) response: Response): Promise<TaxSettingsResource> {
    return withRevision(response, await this.queries.execute(new GetTaxSettingsQuery(context))).settings;
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
