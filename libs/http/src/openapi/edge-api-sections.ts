import type { ApiSection } from '@tally/runtime';

export const EVENTS_SECTION: ApiSection = { name: 'events', description: 'The public event log: every change, as webhooks deliver it', order: 100 };
export const TEST_CLOCKS_SECTION: ApiSection = { name: 'test clocks', description: 'Sandbox clocks that customers live on: advance one to see months of billing in seconds', order: 120 };
export const ADMIN_SECTION: ApiSection = { name: 'admin', description: 'For auditors and operators of a tenant: the audit log, the stored events of any resource, commands that failed every attempt', order: 130 };
export const HEALTH_SECTION: ApiSection = { name: 'health', description: 'Liveness and readiness checks, without a key', order: 150 };

/**
 * The API's own sections of the reference, beside the contexts' (see ContextManifest.apiSections):
 * the event log, test clocks, the admin routes and the health checks. The orders leave room between
 * sections; what a new user builds with comes first, the operator's routes and health checks last.
 */
export const EDGE_API_SECTIONS: readonly ApiSection[] = [EVENTS_SECTION, TEST_CLOCKS_SECTION, ADMIN_SECTION, HEALTH_SECTION];
