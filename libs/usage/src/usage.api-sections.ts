import type { ApiSection } from '@tally/runtime';

export const USAGE_SECTION: ApiSection = { name: 'usage', description: 'Metered usage: events in batches of up to 1000, deduplicated exactly, aggregated per period; usage alerts', order: 90 };
