import { Injectable } from '@nestjs/common';
import type { FieldError } from '@tally/kernel';
import type { Cell, RequestContext } from '@tally/cells';
import { Clocks, CommandRuntime, ScopedReads } from '@tally/runtime';
import { LIVE, loadPlan, subscriptionAggregate, subscriptionView, TERMINAL, usageMeters, type SubscriptionResource } from '@tally/subscriptions';
import type { EventField } from './domain/usage-batch.decide';
import { parseUsageEvent, type UsageDraft } from './domain/usage-event.parse';
import { UsageIngest, type AcceptedUsage } from './usage-ingest';

/** The integration guide's names of the usage fields: `feature_code` is the meter, `value` the quantity, `dedup_key` the dedupe key. */
const TRACK_NAMES: ReadonlyMap<string, string> = new Map([
  ['customer_id', 'subscription_id'],
  ['feature_code', 'meter'],
  ['value', 'quantity'],
  ['dedup_key', 'external_id'],
  ['properties', 'properties'],
  ['timestamp', 'timestamp'],
]);
const USAGE_NAMES = new Map([...TRACK_NAMES].map(([track, usage]) => [usage, track]));

/** More subscriptions of one customer than any plan of routing by feature could mean. */
const MAX_SUBSCRIPTIONS = 100;

/**
 * Usage as the integration guide's `/v1/track` sends it: by customer and feature, routed to the
 * customer's one subscription whose plan meters that feature, then accepted as `/v1/usage` would.
 */
@Injectable()
export class UsageTracking {
  constructor(
    private readonly runtime: CommandRuntime,
    private readonly reads: ScopedReads,
    private readonly clocks: Clocks,
    private readonly ingest: UsageIngest,
  ) {}

  /** `fieldOf` names an event's place in the request; `idempotencyKey` (the request's) is the dedupe key of an event that names none. */
  async track(context: RequestContext, inputs: readonly unknown[], fieldOf: (index: number) => string, idempotencyKey?: string): Promise<AcceptedUsage> {
    const { tracked, problems } = parseTracked(inputs, fieldOf);
    const field = trackFieldOf(fieldOf);
    const cell = this.runtime.cellOf(context);
    const routes = new Map<string, CustomerRoutes>();
    const drafts: (UsageDraft | undefined)[] = [];
    for (const [index, parsed] of tracked.entries()) {
      const route = parsed ? await this.routeOf(cell, context, routes, parsed.draft) : [];
      if (parsed && route.length === 1) {
        drafts.push({ ...parsed.draft, subscription_id: route[0].subscriptionId, timestamp: parsed.timestamped ? parsed.draft.timestamp : route[0].now.toISOString() });
        continue;
      }
      drafts.push(undefined);
      if (parsed) problems.push(unrouted(parsed.draft, route.length, field(index, 'feature_code')));
    }
    return this.ingest.accept(context, drafts, field, () => idempotencyKey, problems);
  }

  /** The subscriptions of the draft's customer (standing in for its subscription) that may still bill its meter, read once per customer. */
  private async routeOf(cell: Cell, context: RequestContext, routes: Map<string, CustomerRoutes>, draft: UsageDraft): Promise<Route[]> {
    const customerId = draft.subscription_id;
    if (!routes.has(customerId)) routes.set(customerId, await this.routesOf(cell, context, customerId));
    return routes.get(customerId)!.get(draft.meter) ?? [];
  }

  /** For each meter, the customer's subscriptions that may still bill it, with their clocks' now. */
  private async routesOf(cell: Cell, context: RequestContext, customerId: string): Promise<CustomerRoutes> {
    const routes: CustomerRoutes = new Map();
    const where = [
      { field: 'customer_id', op: 'eq' as const, value: customerId },
      { field: 'status', op: 'in' as const, value: LIVE },
    ];
    const { items } = await this.reads.list<SubscriptionResource>(context, subscriptionView.collection, { where, limit: MAX_SUBSCRIPTIONS });
    for (const { id } of items) {
      const { state, clockId } = await this.runtime.load(cell, subscriptionAggregate, id, context);
      if (state.status === 'none' || TERMINAL.includes(state.status)) continue;
      const plan = await loadPlan(this.runtime, context, state.planCode);
      const now = await this.clocks.now(cell, clockId);
      for (const { meter } of usageMeters(plan, state.period.start)) routes.set(meter, [...(routes.get(meter) ?? []), { subscriptionId: id, now }]);
    }
    return routes;
  }
}

type Route = { subscriptionId: string; now: Date };
type CustomerRoutes = Map<string, Route[]>;

/** Why a tracked event (its customer id standing in for the subscription) has no one subscription to go to, given how many meter its feature. */
function unrouted(draft: UsageDraft, routes: number, field: string): FieldError {
  const customerId = draft.subscription_id;
  return routes === 0
    ? { field, code: 'track.no_subscription', message: `customer ${customerId} has no subscription that may still bill whose plan meters ${draft.meter}` }
    : { field, code: 'track.ambiguous_subscription', message: `customer ${customerId} has ${routes} subscriptions metering ${draft.meter}: send usage to /v1/usage with the subscription_id` };
}

/**
 * Reads tracked events as usage events (the customer id standing in for the subscription until
 * routed): a hole for each that fails; problems carry the guide's field names.
 */
function parseTracked(inputs: readonly unknown[], fieldOf: (index: number) => string): { tracked: ({ draft: UsageDraft; timestamped: boolean } | undefined)[]; problems: FieldError[] } {
  const problems: FieldError[] = [];
  const tracked = inputs.map((input, index) => {
    const at = fieldOf(index);
    const prefix = at === '' ? '' : `${at}.`;
    const { wire, unknown } = asUsageWire(input);
    const timestamped = isObject(input) && Object.hasOwn(input, 'timestamp');
    const found: FieldError[] = [];
    const draft = parseUsageEvent(wire, at, found);
    problems.push(
      ...unknown.map((key) => ({ field: `${prefix}${key}`, code: 'field.unknown', message: `property ${key} should not exist` })),
      ...found.map((problem) => ({ ...problem, field: trackField(problem.field, prefix) })),
    );
    return draft && unknown.length === 0 ? { draft, timestamped } : undefined;
  });
  return { tracked, problems };
}

/** Names a usage event's fields by the guide's names (`value`, not `quantity`) under `fieldOf(index)`. */
function trackFieldOf(fieldOf: (index: number) => string): EventField {
  return (index, field) => {
    const at = fieldOf(index);
    const prefix = at === '' ? '' : `${at}.`;
    return trackField(`${prefix}${field}`, prefix);
  };
}

/** Stands in for an omitted timestamp until the subscription, whose clock says "now", is known. */
const PLACEHOLDER_TIMESTAMP = '1970-01-01T00:00:00.000Z';

/**
 * The tracked event under the usage event's names; a number `value` as its decimal text (an
 * exponent stays, and is refused). Other fields are unknown, the usage event's own names included.
 */
function asUsageWire(input: unknown): { wire: unknown; unknown: string[] } {
  if (!isObject(input)) return { wire: input, unknown: [] };
  const wire: Record<string, unknown> = Object.create(null);
  const unknown: string[] = [];
  for (const [key, value] of Object.entries(input)) {
    const name = TRACK_NAMES.get(key);
    if (name === undefined) unknown.push(key);
    else wire[name] = key === 'value' && typeof value === 'number' ? String(value) : value;
  }
  wire.timestamp ??= PLACEHOLDER_TIMESTAMP;
  return { wire, unknown };
}

const isObject = (value: unknown): value is object => value !== null && typeof value === 'object' && !Array.isArray(value);

function trackField(field: string, prefix: string): string {
  const [name, ...rest] = field.slice(prefix.length).split('.');
  return prefix + [USAGE_NAMES.get(name) ?? name, ...rest].join('.');
}
