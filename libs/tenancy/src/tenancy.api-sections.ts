import type { ApiSection } from '@tally/runtime';

export const OPERATOR_SECTION: ApiSection = { name: 'operator', description: 'For the operator of this Tally installation (`TALLY_OPERATOR_KEY`): tenants, their regions, limits and API keys', order: 140 };
