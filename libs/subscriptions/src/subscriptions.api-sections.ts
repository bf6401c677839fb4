import type { ApiSection } from '@tally/runtime';

export const SUBSCRIPTIONS_SECTION: ApiSection = { name: 'subscriptions', description: 'A customer on a plan: trials, periods, changes with prorations, pauses, cancellations and commitments', order: 40 };
