import { ApiTags } from '@nestjs/swagger';

/** The sections of the API reference, in the order it shows them: what a new user builds with first, the operator's routes and the health checks last. */
export const API_TAGS = [
  { name: 'customers', description: 'The people and companies you bill: contact and billing address, metadata, tax IDs' },
  { name: 'plans', description: 'What you sell: a product at a currency and billing interval, priced by components' },
  { name: 'coupons', description: 'Discounts: a percentage or an amount off, once, for some periods or forever' },
  { name: 'subscriptions', description: 'A customer on a plan: trials, periods, changes with prorations, pauses, cancellations and commitments' },
  { name: 'tax', description: 'Where you sell from, which decides the tax on your invoices' },
  { name: 'invoices', description: 'What a plan bills a customer: previews with lines, discounts and tax' },
  { name: 'payment methods', description: 'How a customer pays: cards, bank accounts and wallets, attached by provider token, verified, with one default' },
  { name: 'payments', description: 'Charges of invoices: 3DS actions, failures with their retry hints, cancellations; sandbox test helpers' },
  { name: 'usage', description: 'Metered usage: events in batches of up to 1000, deduplicated exactly, aggregated per period; usage alerts' },
  { name: 'events', description: 'The public event log: every change, as webhooks deliver it' },
  { name: 'webhooks', description: 'Endpoints that receive the public events as signed POSTs, in commit order per resource; their deliveries, retries and replays' },
  { name: 'test clocks', description: 'Sandbox clocks that customers live on: advance one to see months of billing in seconds' },
  { name: 'admin', description: 'For auditors and operators of a tenant: the audit log, the stored events of any resource, commands that failed every attempt' },
  { name: 'operator', description: 'For the operator of this Tally installation (`TALLY_OPERATOR_KEY`): tenants, their regions, limits and API keys' },
  { name: 'health', description: 'Liveness and readiness checks, without a key' },
] as const;

export type ApiTagName = (typeof API_TAGS)[number]['name'];

/** Files a controller's routes under one section of the reference. */
export const ApiTag = (name: ApiTagName): ClassDecorator => ApiTags(name);
