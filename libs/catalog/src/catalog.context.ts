import type { ContextManifest } from '@tally/runtime';
import { CatalogModule } from './catalog.module';
import { couponProjection } from './coupon.projection';
import { planProjection } from './plan.projection';

/** Plans with their price book and pricing engine, and coupons. */
export const catalogContext: ContextManifest = {
  name: 'catalog',
  module: CatalogModule,
  projections: [planProjection, couponProjection],
  aggregateTypes: [
    { idPrefix: 'plan', type: 'plan' },
    { idPrefix: 'cpn', type: 'coupon' },
  ],
};
