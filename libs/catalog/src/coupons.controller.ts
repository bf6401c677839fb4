import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query, Res } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { ApiOkResponse } from '@nestjs/swagger';
import type { Response } from 'express';
import {
  API_KEY_AUTH,
  API_KEY_PROBLEMS,
  ApiAuthenticated,
  ApiIdempotent,
  ApiListResponse,
  ApiProblemResponses,
  Ctx,
  IDEMPOTENT_PROBLEMS,
  LIST_PROBLEMS,
  toUtcTimestamp,
  withRevision,
  type ListPage,
  type RequestContext,
} from '@tally/platform';
import { CreateCouponDto, UpdateCouponDto } from './dto/coupon.dto';
import { CouponResponse, DeletedCouponResponse } from './dto/coupon.response';
import { ExecuteCouponCommand, type CouponWritten } from './coupon.handlers';
import { COUPON_LIST, GetCouponQuery, ListCouponsQuery } from './coupon.queries';
import type { CouponResource } from './coupon.view';

const ETAG = { ETag: { description: 'The coupon’s revision', schema: { type: 'string', example: 'W/"0"' } } };
const COUPON_NOT_FOUND = { 404: ['coupon.not_found'] };

@Controller('v1/coupons')
@ApiAuthenticated(API_KEY_AUTH)
export class CouponsController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
  ) {}

  @Post()
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
    const written = await this.commands.execute(new ExecuteCouponCommand(context, body.code, { type: 'CreateCoupon', data }));
    return withRevision(response, written).coupon!;
  }

  @Get()
  @ApiListResponse(CouponResponse, COUPON_LIST)
  @ApiProblemResponses(API_KEY_PROBLEMS, LIST_PROBLEMS)
  list(@Ctx() context: RequestContext, @Query() params: Record<string, unknown>): Promise<ListPage<CouponResource>> {
    return this.queries.execute(new ListCouponsQuery(context, params));
  }

  @Get(':coupon')
  @ApiOkResponse({ type: CouponResponse, headers: ETAG })
  @ApiProblemResponses(API_KEY_PROBLEMS, COUPON_NOT_FOUND)
  async retrieve(@Ctx() context: RequestContext, @Param('coupon') coupon: string, @Res({ passthrough: true }) response: Response): Promise<CouponResource> {
    return withRevision(response, await this.queries.execute(new GetCouponQuery(context, coupon))).coupon;
  }

  @Patch(':coupon')
  @ApiOkResponse({ type: CouponResponse, headers: ETAG })
  @ApiProblemResponses(API_KEY_PROBLEMS, COUPON_NOT_FOUND, { 400: ['request.invalid_metadata'], 409: ['request.concurrent_update'] })
  async update(@Ctx() context: RequestContext, @Param('coupon') coupon: string, @Body() body: UpdateCouponDto, @Res({ passthrough: true }) response: Response): Promise<CouponResource> {
    const written = await this.commands.execute(new ExecuteCouponCommand(context, coupon, { type: 'UpdateCoupon', data: { ...body } }));
    return withRevision(response, written).coupon!;
  }

  @Delete(':coupon')
  @ApiOkResponse({ type: DeletedCouponResponse, description: 'Subscriptions that already have the coupon keep their discount; its code stays taken' })
  @ApiProblemResponses(API_KEY_PROBLEMS, COUPON_NOT_FOUND, { 409: ['request.concurrent_update'] })
  async delete(@Ctx() context: RequestContext, @Param('coupon') coupon: string): Promise<DeletedCouponResponse> {
    const { id } = await this.commands.execute<ExecuteCouponCommand, CouponWritten>(new ExecuteCouponCommand(context, coupon, { type: 'DeleteCoupon', data: {} }));
    return { id, object: 'coupon', deleted: true };
  }
}
