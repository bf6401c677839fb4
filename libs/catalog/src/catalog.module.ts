import { Module } from '@nestjs/common';
import { CouponsController } from './coupons.controller';
import { couponQueryHandlers } from './coupon.queries';
import { planQueryHandlers } from './plan.queries';
import { PlansController } from './plans.controller';

@Module({
  controllers: [PlansController, CouponsController],
  providers: [...planQueryHandlers, ...couponQueryHandlers],
})
export class CatalogModule {}
