import type { ApiSection } from '@tally/runtime';

export const WEBHOOKS_SECTION: ApiSection = { name: 'webhooks', description: 'Endpoints that receive the public events as signed POSTs, in commit order per resource; their deliveries, retries and replays', order: 110 };
