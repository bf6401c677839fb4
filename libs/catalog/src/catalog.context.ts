import type { ContextManifest } from '@tally/runtime';
import { CatalogModule } from './catalog.module';
import { couponResource } from './coupon.resource';
import { planResource } from './plan.resource';
import { PLANS_SECTION, COUPONS_SECTION } from './catalog.api-sections';

/** Plans with their price book and pricing engine, and coupons. */
export const catalogContext: ContextManifest = {
  name: 'catalog',
  apiSections: [PLANS_SECTION, COUPONS_SECTION],
  module: CatalogModule,
  projections: [planResource.projection, couponResource.projection],
  aggregateTypes: [
    { idPrefix: 'plan', type: 'plan' },
    { idPrefix: 'cpn', type: 'coupon' },
  ],
};
