import type { ContextManifest } from '@tally/runtime';
import { CatalogModule } from './catalog.module';
import { couponResource } from './coupon.resource';
import { planResource } from './plan.resource';

/** Plans with their price book and pricing engine, and coupons. */
export const catalogContext: ContextManifest = {
  name: 'catalog',
  module: CatalogModule,
  projections: [planResource.projection, couponResource.projection],
  aggregateTypes: [
    { idPrefix: 'plan', type: 'plan' },
    { idPrefix: 'cpn', type: 'coupon' },
  ],
};
