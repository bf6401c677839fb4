import { randomInt } from 'node:crypto';
import { derivedId, type IdGenerator } from '@tally/kernel';
import type { Cell, LeaseFence, RequestContext } from '@tally/cells';
import { signatureHeaderName, isApiVersion, CURRENT_API_VERSION } from '@tally/http';
import type { After } from '@tally/readstore';
import { PUBLIC_EVENTS, TEST_CLOCK_ID_PREFIX, type Clocks, type CommandRuntime, type PublicEventDoc, type Runner } from '@tally/runtime';
import { nextAttemptAt } from '../domain/retry-schedule';
import type { WebhookDeliveryAttempted } from '../domain/webhook-delivery.events';
import { deliveryBody } from '../delivery-body';
import { SYSTEM_CLOCK_LANES, targetsId, WEBHOOK_DELIVERIES, WEBHOOK_LANES, WEBHOOK_TARGETS, type DeliveryDoc, type DeliveryTarget, type LaneDoc, type TargetsDoc } from '../outbox/outbox-documents';
import { appendToDeliveryLog, deliveryLogOf } from '../webhook-delivery-log';
import { webhookEndpointAggregate } from '../webhook-endpoint.aggregate';
import { purgeExpiredDeliveries } from './delivery-retention';
import { signatureHeaderValue } from './signature';
import type { WebhookResponse, WebhookSender } from './webhook-sender';

/** Attempts under way at once for one endpoint (each on its own aggregate) and in all. */
export const PER_ENDPOINT_CONCURRENCY = 16;
export const TOTAL_CONCURRENCY = 256;
/** How often the lanes are read while nothing is due. */
const IDLE_POLL_MS = 10;
/** Lanes read at once. */
const BATCH = 500;
/** How long (in real time) a lane the dispatcher attempted is not attempted again unless the outbox shows its attempt. */
const AWAITING_RECORD_MS = 60_000;
const PURGE_EVERY_MS = 3600 * 1000;
/** How long the list of enabled endpoints is used before it is read again; each attempt reads its endpoint afresh. */
const ENDPOINTS_TTL_MS = 100;

interface Addressed {
  target: DeliveryTarget;
  tenantId: string;
  environment: string;
}

export interface DispatcherDependencies {
  cell: Cell;
  fence: LeaseFence;
  clocks: Clocks;
  ids: IdGenerator;
  commands: CommandRuntime;
  sender: WebhookSender;
  /** The outbox projection's checkpoint name: expired records are deleted behind it. */
  outboxCheckpoint: string;
  log: { error(message: string, error?: unknown): void };
}

/**
 * Sends the outbox's deliveries of one cell. It reads the lanes that are due, attempts the first
 * delivery of each (never two of one lane at once, so an aggregate's events go in commit order),
 * and records every attempt in the endpoint's delivery log, which the outbox folds into the lane:
 * the next delivery becomes due, or the same one at its retry time. Until that record shows in
 * the outbox, the lane is not attempted again. A crash between an attempt and its record sends
 * that one delivery again, with the same event id.
 */
export class WebhookDispatcher implements Runner {
  private stopped = false;
  private loop: Promise<void> | undefined;
  private wake: (() => void) | undefined;
  private readonly inFlight = new Map<string, Promise<void>>();
  private readonly inFlightByEndpoint = new Map<string, number>();
  /** Lanes attempted, as they then were, until the outbox records the attempt. */
  private readonly awaitingRecord = new Map<string, { marker: string; since: number }>();
  private lastPurge: number | undefined;
  private endpoints: { ids: readonly string[]; at: number } | undefined;

  constructor(private readonly deps: DispatcherDependencies) {}

  start(): void {
    this.loop = this.run();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.wake?.();
    await this.loop;
    await Promise.allSettled(this.inFlight.values());
  }

  private async run(): Promise<void> {
    await this.awaitRecordedAttempts().catch((error) => this.deps.log.error('webhook dispatcher could not read the delivery logs', error));
    while (!this.stopped) {
      try {
        await this.purgeWhenDue();
        const started = await this.dispatchDue();
        if (started === 0) await this.pause(IDLE_POLL_MS);
        else await new Promise((resolve) => setImmediate(resolve));
      } catch (error) {
        this.deps.log.error('webhook dispatch failed', error);
        await this.pause(1000);
      }
    }
  }

  /**
   * Before the first pass, waits until the outbox has folded every attempt recorded before this
   * dispatcher started (by a process that crashed, or lost its lease), so that none of those is
   * made again from a lane that does not show it yet.
   */
  private async awaitRecordedAttempts(): Promise<void> {
    let last = -1n;
    for (const id of await this.enabledEndpoints()) {
      const latest = await this.deps.cell.events.lastEventOf(deliveryLogOf(id));
      if (latest && latest.position > last) last = latest.position;
    }
    while (!this.stopped && ((await this.deps.cell.readModels.getCheckpoint(this.deps.outboxCheckpoint)) ?? -1n) < last) await this.pause(IDLE_POLL_MS);
  }

  /**
   * Starts an attempt for every due lane there is room for; returns how many started. Only the
   * lanes of endpoints with a free slot are read, and documents only for the lanes chosen, so a
   * backlog behind a busy or failing endpoint costs a pass nothing.
   */
  private async dispatchDue(): Promise<number> {
    const endpoints = await this.enabledEndpoints();
    const now = performance.now();
    if (this.awaitingRecord.size > BATCH) this.forgetOldAttempts(now);
    let started = 0;
    for await (const lanes of this.dueLanes(() => this.withRoom(endpoints))) {
      const chosen = this.choose(lanes, now);
      if (chosen.length === 0) continue;
      const { readModels } = this.deps.cell;
      const deliveries = await readModels.getMany<DeliveryDoc>(WEBHOOK_DELIVERIES, chosen.map((lane) => lane.head));
      const events = await readModels.getMany<PublicEventDoc>(PUBLIC_EVENTS, [...new Set([...deliveries.values()].map((delivery) => delivery.event_id))]);
      const targets = await readModels.getMany<TargetsDoc>(WEBHOOK_TARGETS, [...new Set(chosen.map((lane) => targetsId(lane.tenant_id, lane.environment)))]);
      for (const lane of chosen) {
        const delivery = deliveries.get(lane.head);
        const event = delivery && events.get(delivery.event_id);
        const target = targets.get(targetsId(lane.tenant_id, lane.environment))?.endpoints.find((endpoint) => endpoint.id === lane.webhook_endpoint_id);
        // The event's own projection has not written it yet, or the endpoint was disabled since the list was read.
        if (!delivery || delivery.status !== 'pending' || !event || target?.status !== 'enabled') continue;
        this.begin(lane, this.attempt({ target, tenantId: lane.tenant_id, environment: lane.environment }, lane, delivery, event));
        started++;
      }
    }
    return started;
  }

  /** The enabled endpoints with a free slot; none when the cell has none. */
  private withRoom(endpoints: readonly string[]): string[] {
    if (this.inFlight.size >= TOTAL_CONCURRENCY) return [];
    return endpoints.filter((id) => (this.inFlightByEndpoint.get(id) ?? 0) < PER_ENDPOINT_CONCURRENCY);
  }

  /** The ready lanes of a page, as many as their endpoints and the cell have room for. */
  private choose(lanes: readonly LaneDoc[], now: number): LaneDoc[] {
    const room = new Map<string, number>();
    let total = TOTAL_CONCURRENCY - this.inFlight.size;
    const chosen: LaneDoc[] = [];
    for (const lane of lanes) {
      if (total === 0) break;
      const endpoint = lane.webhook_endpoint_id;
      const free = room.get(endpoint) ?? PER_ENDPOINT_CONCURRENCY - (this.inFlightByEndpoint.get(endpoint) ?? 0);
      if (free <= 0 || !this.isReady(lane, now)) continue;
      room.set(endpoint, free - 1);
      total--;
      chosen.push(lane);
    }
    return chosen;
  }

  /**
   * The due lanes of the endpoints `withRoom` names (asked again for every page), a page at a
   * time, earliest first: those on the system clock by their due time, then one page of those on
   * sandbox test clocks, each due by its own clock (few lanes wait on a test clock).
   */
  private async *dueLanes(withRoom: () => string[]): AsyncGenerator<LaneDoc[]> {
    const sort = { field: 'due_at', direction: 'asc' as const };
    const upTo = this.deps.clocks.system.now().toISOString();
    for (let after: After | undefined; ; ) {
      const endpointIds = withRoom();
      if (endpointIds.length === 0) return;
      const where = [
        { field: 'webhook_endpoint_id', op: 'in' as const, value: endpointIds },
        { field: 'clock', op: 'eq' as const, value: SYSTEM_CLOCK_LANES },
        { field: 'due_at', op: 'lte' as const, value: upTo },
      ];
      const { items, hasMore } = await this.deps.cell.readModels.find<LaneDoc>(WEBHOOK_LANES, { where, sort, after, limit: BATCH });
      yield items;
      if (!hasMore) break;
      after = { value: items[items.length - 1].due_at, id: items[items.length - 1].id };
    }
    const endpointIds = withRoom();
    if (endpointIds.length === 0) return;
    const ofEndpoints = { field: 'webhook_endpoint_id', op: 'in' as const, value: endpointIds };
    const where = [ofEndpoints, { field: 'clock', op: 'starts' as const, value: `${TEST_CLOCK_ID_PREFIX}_` }];
    const { items } = await this.deps.cell.readModels.find<LaneDoc>(WEBHOOK_LANES, { where, sort, limit: BATCH });
    const nowOn = new Map<string, string>();
    const due: LaneDoc[] = [];
    for (const lane of items) {
      if (!nowOn.has(lane.clock)) nowOn.set(lane.clock, (await this.now(lane.clock)).toISOString());
      if (lane.due_at <= nowOn.get(lane.clock)!) due.push(lane);
    }
    yield due;
  }

  /** Now on a lane's clock; a deleted test clock no longer holds its lanes back. */
  private async now(clock: string): Promise<Date> {
    if (clock === SYSTEM_CLOCK_LANES) return this.deps.clocks.system.now();
    return this.deps.clocks.now(this.deps.cell, clock).catch(() => this.deps.clocks.system.now());
  }

  /** Deletes expired delivery records at most once an hour of the system clock. */
  private async purgeWhenDue(): Promise<void> {
    const now = this.deps.clocks.system.now();
    if (this.lastPurge !== undefined && now.getTime() - this.lastPurge < PURGE_EVERY_MS) return;
    this.lastPurge = now.getTime();
    this.deps.fence.assertHeld();
    await purgeExpiredDeliveries(this.deps.cell.readModels, this.deps.outboxCheckpoint, now);
  }

  /** Forgets the attempts whose lanes the outbox emptied, which no later read shows. */
  private forgetOldAttempts(now: number): void {
    for (const [lane, { since }] of this.awaitingRecord) if (now - since >= AWAITING_RECORD_MS) this.awaitingRecord.delete(lane);
  }

  private isReady(lane: LaneDoc, now: number): boolean {
    if (this.inFlight.has(lane.id)) return false;
    const awaiting = this.awaitingRecord.get(lane.id);
    if (!awaiting) return true;
    if (awaiting.marker === markerOf(lane) && now - awaiting.since < AWAITING_RECORD_MS) return false;
    this.awaitingRecord.delete(lane.id);
    return true;
  }

  private begin(lane: LaneDoc, attempt: Promise<void>): void {
    const endpointId = lane.webhook_endpoint_id;
    this.inFlightByEndpoint.set(endpointId, (this.inFlightByEndpoint.get(endpointId) ?? 0) + 1);
    const running = attempt
      .then(() => {
        this.awaitingRecord.set(lane.id, { marker: markerOf(lane), since: performance.now() });
      })
      .catch((error) => this.deps.log.error(`webhook delivery ${lane.head} could not be recorded`, error))
      .finally(() => {
        this.inFlight.delete(lane.id);
        this.inFlightByEndpoint.set(endpointId, this.inFlightByEndpoint.get(endpointId)! - 1);
        this.wake?.();
      });
    this.inFlight.set(lane.id, running);
  }

  /**
   * POSTs the delivery, then records the attempt (and, when it gave up, the endpoint's failure).
   * The signature's time is the system clock's, which receivers check against theirs; the attempt
   * and its retries are timed on the lane's clock.
   */
  private async attempt({ target, tenantId, environment }: Addressed, lane: LaneDoc, delivery: DeliveryDoc, event: PublicEventDoc): Promise<void> {
    const signedAt = this.deps.clocks.system.now();
    const attemptedAt = await this.now(lane.clock);
    const version = isApiVersion(target.api_version) ? target.api_version : CURRENT_API_VERSION;
    const body = deliveryBody(event, tenantId, version);
    const secrets = target.secrets.filter(({ expires_at }) => expires_at === null || expires_at > signedAt.toISOString()).map(({ secret }) => secret);
    const headers = {
      'Content-Type': 'application/json',
      [signatureHeaderName(version)]: signatureHeaderValue(secrets, Math.floor(signedAt.getTime() / 1000), body),
      'Service-Event-Id': delivery.event_id,
      'Service-Delivery-Id': delivery.id,
      'Service-Event-Type': delivery.event_type,
    };
    const response = await this.deps.sender.send({ url: target.url, headers, body, mode: environment === 'live' ? 'live' : 'sandbox' });
    const attempted = this.recordOf(delivery, attemptedAt, response);
    const context: RequestContext = { tenantId, environment: environment as RequestContext['environment'], region: this.deps.cell.region, actor: 'system', requestId: null, correlationId: delivery.event_id, causationId: delivery.event_id };
    this.deps.fence.assertHeld();
    if (attempted.data.outcome === 'failed' && !delivery.manual_retry) await this.recordFailure(context, delivery, attempted.data);
    await appendToDeliveryLog(this.deps.cell, context, target.id, [attempted], this.deps.clocks.system.now());
  }

  private recordOf(delivery: DeliveryDoc, attemptedAt: Date, response: WebhookResponse): WebhookDeliveryAttempted & { id: string } {
    const attempt = delivery.attempt_count + 1;
    const succeeded = response.status !== null && response.status >= 200 && response.status < 300;
    const next = succeeded || delivery.manual_retry ? undefined : nextAttemptAt(attempt, new Date(delivery.first_attempted_at ?? attemptedAt), attemptedAt, randomInt(1_000_000) / 1_000_000);
    return {
      id: this.deps.ids.ulid(),
      type: 'WebhookDeliveryAttempted',
      data: {
        delivery_id: delivery.id,
        attempt,
        attempted_at: attemptedAt.toISOString(),
        duration_ms: Math.round(response.durationMs),
        response_status: response.status,
        response_body: response.body,
        error: response.error,
        outcome: succeeded ? 'succeeded' : next ? 'retrying' : 'failed',
        next_attempt_at: next?.toISOString() ?? null,
      },
    };
  }

  /** `webhook_endpoint.delivery_failed`, once per delivery: the command id derives from it. */
  private async recordFailure(context: RequestContext, delivery: DeliveryDoc, attempted: WebhookDeliveryAttempted['data']): Promise<void> {
    const data = { webhook_endpoint_id: delivery.webhook_endpoint_id, delivery_id: delivery.id, event_id: delivery.event_id, event_type: delivery.event_type, attempts: attempted.attempt, failed_at: attempted.attempted_at };
    const failure = { ...context, commandId: derivedId('cmd', ['webhook_delivery_failed', delivery.id]) };
    await this.deps.commands.execute(webhookEndpointAggregate, delivery.webhook_endpoint_id, { type: 'RecordWebhookDeliveryFailure', data }, failure);
  }

  /** The ids of the cell's enabled endpoints, read again at most every ENDPOINTS_TTL_MS. */
  private async enabledEndpoints(): Promise<readonly string[]> {
    const now = performance.now();
    if (this.endpoints && now - this.endpoints.at < ENDPOINTS_TTL_MS) return this.endpoints.ids;
    const ids: string[] = [];
    for (const doc of await this.deps.cell.readModels.all<TargetsDoc>(WEBHOOK_TARGETS)) {
      for (const target of doc.endpoints) if (target.status === 'enabled') ids.push(target.id);
    }
    this.endpoints = { ids, at: now };
    return ids;
  }

  private pause(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        resolve();
      }
      this.wake = done;
    });
  }
}

/** A lane as the dispatcher attempted it: the same first delivery, due at the same time. */
const markerOf = (lane: LaneDoc): string => `${lane.head}@${lane.due_at}`;
