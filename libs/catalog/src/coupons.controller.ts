import { Body, Controller, Delete, HttpCode, Inject, Param, Patch, Post, Res } from '@nestjs/common';
import { ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import type { Response } from 'express';
import { API_KEY_AUTH, API_KEY_PROBLEMS, ApiAuthenticated, ApiIdempotent, ApiProblemResponses, ApiTag, Ctx, IDEMPOTENT_PROBLEMS, withRevision, resourceController } from '@tally/http';
import { toUtcTimestamp, type Clock, type CommandIntent } from '@tally/kernel';
import { Commands } from '@tally/runtime';
import { CLOCK, type RequestContext } from '@tally/cells';
import type { CouponCommand, RedeemCoupon } from './domain/coupon.decider';
import { CreateCouponDto, UpdateCouponDto } from './dto/coupon.dto';
import { CouponResponse, DeletedCouponResponse } from './dto/coupon.response';
import { couponAggregate, couponIdOf } from './coupon.aggregate';
import { couponAt, type CouponResource } from './coupon.view';
import { couponResource } from './coupon.resource';
import { COUPONS_SECTION } from './catalog.api-sections';

const ETAG = { ETag: { description: 'The coupon’s revision', schema: { type: 'string', example: 'W/"0"' } } };
const COUPON_NOT_FOUND = { 404: ['coupon.not_found'] };

/** A coupon command as a request states it: the controller adds the coupon's id and "now". */
type CouponIntent = CommandIntent<Exclude<CouponCommand, RedeemCoupon>, 'coupon_id' | 'at'>;

@Controller('v1/coupons')
@ApiAuthenticated(API_KEY_AUTH)
@ApiTag(COUPONS_SECTION)
export class CouponsController {
  constructor(
    private readonly commands: Commands,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  @Post()
  @ApiOperation({
    summary: 'Create a coupon',
    description:
      'A percentage (`percent_off`) or a fixed amount in one currency (`amount_off` with `currency`) off, for the first invoice, for `duration_in_periods` invoices, or forever; ' +
      'optionally limited to some components, a number of redemptions, or a last moment to redeem it. The `code` names the coupon in paths in place of its id.',
  })
  @HttpCode(200)
  @ApiOkResponse({ type: CouponResponse, headers: ETAG })
  @ApiIdempotent()
  @ApiProblemResponses(API_KEY_PROBLEMS, IDEMPOTENT_PROBLEMS, { 400: ['coupon.invalid', 'request.invalid_metadata'], 409: ['coupon.code_taken', 'request.concurrent_update'] })
  async create(@Ctx() context: RequestContext, @Body() body: CreateCouponDto, @Res({ passthrough: true }) response: Response): Promise<CouponResource> {
    const data = {
      code: body.code,
      name: body.name ?? null,
      percent_off: body.percent_off ?? null,
      amount_off: body.amount_off ?? null,
      currency: body.currency ?? null,
      duration: body.duration,
      duration_in_periods: body.duration_in_periods ?? null,
      max_redemptions: body.max_redemptions ?? null,
      redeem_by: body.redeem_by === undefined ? null : toUtcTimestamp(body.redeem_by),
      applies_to: body.applies_to ? { components: body.applies_to.components } : null,
      metadata: body.metadata ?? {},
    };
    return (await this.run(context, response, body.code, { type: 'CreateCoupon', data })).coupon!;
  }

  @Patch(':coupon')
  @ApiOperation({ summary: 'Update a coupon', description: 'Only the name and the metadata change; the terms of a coupon are fixed once created.' })
  @ApiOkResponse({ type: CouponResponse, headers: ETAG })
  @ApiProblemResponses(API_KEY_PROBLEMS, COUPON_NOT_FOUND, { 400: ['request.invalid_metadata'], 409: ['request.concurrent_update'] })
  async update(@Ctx() context: RequestContext, @Param('coupon') coupon: string, @Body() body: UpdateCouponDto, @Res({ passthrough: true }) response: Response): Promise<CouponResource> {
    return (await this.run(context, response, coupon, { type: 'UpdateCoupon', data: { ...body } })).coupon!;
  }

  @Delete(':coupon')
  @ApiOperation({ summary: 'Delete a coupon', description: 'The coupon is gone for the API (404 from then on) and can no longer be redeemed; subscriptions that already have it keep their discount, and its code stays taken.' })
  @ApiOkResponse({ type: DeletedCouponResponse, description: 'Subscriptions that already have the coupon keep their discount; its code stays taken' })
  @ApiProblemResponses(API_KEY_PROBLEMS, COUPON_NOT_FOUND, { 409: ['request.concurrent_update'] })
  async delete(@Ctx() context: RequestContext, @Param('coupon') coupon: string): Promise<DeletedCouponResponse> {
    const { id } = await this.run(context, undefined, coupon, { type: 'DeleteCoupon', data: {} });
    return { id, object: 'coupon', deleted: true };
  }

  /** The coupon (by code or id; a new coupon by its code) after the command, as of the moment it was sent: undefined once deleted. */
  private async run(context: RequestContext, response: Response | undefined, codeOrId: string, intent: CouponIntent): Promise<{ coupon: CouponResource | undefined; id: string }> {
    const at = this.clock.now().toISOString();
    const coupon_id = couponIdOf(context, codeOrId);
    const command = { type: intent.type, data: { ...intent.data, coupon_id, at } } as CouponCommand;
    const written = await this.commands.send(couponAggregate, coupon_id, command, context);
    if (response) withRevision(response, written);
    return { coupon: written.resource && couponAt(written.resource, at), id: coupon_id };
  }
}

/** The list and the retrieve (with `as_of`), from the resource's definition. */
export const CouponReadsController = resourceController(couponResource, {
  path: 'v1/coupons', param: 'coupon', tag: COUPONS_SECTION, noun: 'coupon', type: CouponResponse, etag: ETAG, operations: 'CouponsController',
  list: { summary: 'List coupons', description: 'Newest first by default; filter by code, duration, currency and creation time.' },
  retrieve: { summary: 'Retrieve a coupon', description: 'By id or code, with the number of times it was redeemed; with `as_of` as it was at that moment, rebuilt from its events (404 before it existed).', problems: COUPON_NOT_FOUND },
});
