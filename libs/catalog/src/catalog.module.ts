import { Module } from '@nestjs/common';
import { CouponReadsController, CouponsController } from './coupons.controller';
import { PlanReadsController, PlansController } from './plans.controller';

@Module({
  controllers: [PlanReadsController, PlansController, CouponReadsController, CouponsController],
})
export class CatalogModule {}
