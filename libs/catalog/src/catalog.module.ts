import { Module } from '@nestjs/common';
import { CouponReadsController, CouponsController } from './coupons.controller';
import { ExecuteCouponHandler } from './coupon.handlers';
import { ExecutePlanHandler } from './plan.handlers';
import { PlanReadsController, PlansController } from './plans.controller';

@Module({
  controllers: [PlanReadsController, PlansController, CouponReadsController, CouponsController],
  providers: [ExecutePlanHandler, ExecuteCouponHandler],
})
export class CatalogModule {}
