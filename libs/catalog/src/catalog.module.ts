import { Module } from '@nestjs/common';
import { CouponsController } from './coupons.controller';
import { ExecuteCouponHandler } from './coupon.handlers';
import { ExecutePlanHandler } from './plan.handlers';
import { PlansController } from './plans.controller';

@Module({
  controllers: [PlansController, CouponsController],
  providers: [ExecutePlanHandler, ExecuteCouponHandler],
})
export class CatalogModule {}
