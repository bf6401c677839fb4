import { Module } from '@nestjs/common';
import { CouponsController } from './coupons.controller';
import { ExecuteCouponHandler } from './coupon.handlers';
import { couponQueryHandlers } from './coupon.queries';
import { ExecutePlanHandler } from './plan.handlers';
import { planQueryHandlers } from './plan.queries';
import { PlansController } from './plans.controller';

@Module({
  controllers: [PlansController, CouponsController],
  providers: [ExecutePlanHandler, ...planQueryHandlers, ExecuteCouponHandler, ...couponQueryHandlers],
})
export class CatalogModule {}
