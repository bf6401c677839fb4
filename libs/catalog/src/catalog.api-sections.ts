import type { ApiSection } from '@tally/runtime';

export const PLANS_SECTION: ApiSection = { name: 'plans', description: 'What you sell: a product at a currency and billing interval, priced by components', order: 20 };
export const COUPONS_SECTION: ApiSection = { name: 'coupons', description: 'Discounts: a percentage or an amount off, once, for some periods or forever', order: 30 };
