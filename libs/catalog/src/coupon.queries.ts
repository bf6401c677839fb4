import { Inject } from '@nestjs/common';
import { Query, QueryHandler, type IQueryHandler } from '@nestjs/cqrs';
import type { Clock } from '@tally/kernel';
import { CLOCK, type RequestContext } from '@tally/cells';
import { ScopedReads, type ListPage, type ListSpec } from '@tally/runtime';
import { couponAggregate, couponIdOf } from './coupon.aggregate';
import { DURATIONS } from './dto/coupon.dto';
import { couponAt, couponView, type CouponResource } from './coupon.view';

export const COUPON_LIST: ListSpec = {
  sortable: ['created_at', 'updated_at', 'code'],
  filters: {
    code: { ops: ['eq', 'in', 'starts'] },
    duration: { ops: ['eq', 'in'], values: DURATIONS },
    currency: { ops: ['eq', 'in'] },
    created_at: { ops: ['gte', 'gt', 'lte', 'lt'], type: 'timestamp' },
  },
};

export const COUPON_INDEXES = [
  { fields: ['tenant_id', 'environment', 'created_at'] },
  { fields: ['tenant_id', 'environment', 'updated_at'] },
  { fields: ['tenant_id', 'environment', 'code'] },
];

export class GetCouponQuery extends Query<{ coupon: CouponResource; revision: number }> {
  constructor(
    readonly context: RequestContext,
    readonly codeOrId: string,
  ) {
    super();
  }
}

export class ListCouponsQuery extends Query<ListPage<CouponResource>> {
  constructor(
    readonly context: RequestContext,
    readonly params: Record<string, unknown>,
  ) {
    super();
  }
}

@QueryHandler(GetCouponQuery)
export class GetCouponHandler implements IQueryHandler<GetCouponQuery, { coupon: CouponResource; revision: number }> {
  constructor(
    private readonly reads: ScopedReads,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ context, codeOrId }: GetCouponQuery): Promise<{ coupon: CouponResource; revision: number }> {
    const found = await this.reads.retrieve<CouponResource>(context, couponView.collection, couponIdOf(context, codeOrId));
    if (!found) throw couponAggregate.notFound(codeOrId);
    return { coupon: couponAt(found.resource, this.clock.now().toISOString()), revision: found.revision };
  }
}

@QueryHandler(ListCouponsQuery)
export class ListCouponsHandler implements IQueryHandler<ListCouponsQuery, ListPage<CouponResource>> {
  constructor(
    private readonly reads: ScopedReads,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ context, params }: ListCouponsQuery): Promise<ListPage<CouponResource>> {
    const now = this.clock.now().toISOString();
    return this.reads.page<CouponResource>(context, couponView.collection, params, COUPON_LIST, (coupon) => couponAt(coupon, now));
  }
}

export const couponQueryHandlers = [GetCouponHandler, ListCouponsHandler];
