import { derivedId, type IdGenerator } from '@tally/kernel';
import type { Cell, LeaseFence, RequestContext } from '@tally/cells';
import { encodePosition, type After, type Condition } from '@tally/readstore';
import { PUBLIC_EVENTS, type Clocks, type CommandRuntime, type PublicEventDoc, type ServiceRunner } from '@tally/runtime';
import type { WebhookDeliveryAttempted } from '../domain/webhook-delivery.events';
import { DUE_NOW, SYSTEM_CLOCK_LANES, WEBHOOK_DELIVERIES, WEBHOOK_LANES, WEBHOOK_TARGETS, type DeliveryDoc, type DeliveryTarget, type LaneDoc, type TargetsDoc } from '../outbox/outbox-documents';
import { appendToDeliveryLog, deliveryLogOf } from '../webhook-delivery-log';
import { webhookEndpointAggregate } from '../webhook-endpoint.aggregate';
import { attemptRecord, deliveryRequest } from './delivery-request';
import { purgeExpiredDeliveries } from './delivery-retention';
import { LaneBook } from './lane-book';
import { SigningSecrets } from './signing-secrets';
import { TargetBook } from './target-book';
import type { WebhookSender } from './webhook-sender';

/** Requests under way at once to one endpoint (each for its own aggregate) and in all. */
export const PER_ENDPOINT_CONCURRENCY = 128;
export const TOTAL_CONCURRENCY = 1024;
/** How soon the outbox's checkpoint is read again after a pass that started nothing. */
const IDLE_POLL_MS = 10;
/** The longest pause between reads of an outbox that stays quiet (each idle pass doubles the pause up to it). */
const QUIET_POLL_MS = 160;

/** The pause after the `idlePasses`-th pass in a row that started nothing: 10 ms, 20, 40, 80, then 160 ms. */
export function idlePauseMs(idlePasses: number): number {
  return Math.min(IDLE_POLL_MS * 2 ** Math.max(0, idlePasses - 1), QUIET_POLL_MS);
}
/** Lanes read at once from the outbox. */
const PAGE = 1000;
/** How long a lane waits for its event's own projection before another look. */
const HOLD_MS = 20;
/** How long a lane whose attempt could not be recorded waits before it is read again (and attempted again unless the record showed). */
const UNRECORDED_RETRY_MS = 1000;
const PURGE_EVERY_MS = 3600 * 1000;

export interface DispatcherDependencies {
  cell: Cell;
  fence: LeaseFence;
  clocks: Clocks;
  ids: IdGenerator;
  commands: CommandRuntime;
  sender: WebhookSender;
  /** The outbox projection's checkpoint name: the lanes are followed, and expired records deleted, behind it. */
  outboxCheckpoint: string;
  log: { error(message: string, error?: unknown): void };
}

/**
 * Sends the outbox's deliveries of one cell. It keeps the outbox's lanes and endpoints in memory
 * (a LaneBook, a TargetBook), reading at first all of them and then those the outbox changed
 * behind its checkpoint; it attempts
 * the first delivery of each ready lane (never two of one lane at once, so an aggregate's events
 * go in commit order), and records every attempt in the endpoint's delivery log, which the outbox
 * folds into the lane: the next delivery becomes due, or the same one at its retry time. The lane
 * is placed again only once the outbox's checkpoint has passed that record. A crash between an
 * attempt and its record sends that one delivery again, with the same event id.
 */
export class WebhookDispatcher implements ServiceRunner {
  private stopped = false;
  private loop: Promise<void> | undefined;
  private wake: (() => void) | undefined;
  private readonly lanes = new LaneBook();
  private readonly targets = new TargetBook();
  private readonly secrets: SigningSecrets;
  private readonly attempts = new Set<Promise<void>>();
  /** The outbox position whose lane and endpoint changes the books hold; undefined before the first read. */
  private followedUpTo: bigint | undefined;
  private lastPurge: number | undefined;
  /** Passes (a purge when due, then the lanes) begun so far. */
  private passes = 0;
  /** Told how many attempts the first pass begun after `after` passes started. */
  private passWatchers: { after: number; tell: (started: number) => void }[] = [];
  /** Passes in a row that started nothing: a quiet outbox is read less and less often. */
  private idlePasses = 0;

  constructor(private readonly deps: DispatcherDependencies) {
    this.secrets = new SigningSecrets(deps.cell);
  }

  start(): void {
    this.loop = this.run();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.wake?.();
    await this.loop;
    await Promise.allSettled(this.attempts);
    this.passed(Infinity, 0);
  }

  /**
   * Resolves once a pass begun after the call started no attempt while none was under way, none
   * waited for its record to be folded and no lane was held: every delivery the outbox held then
   * and due now on its clock has been attempted and recorded (or its endpoint is disabled), and
   * the records expired by now are deleted.
   */
  async whenIdle(): Promise<void> {
    while (!this.stopped) {
      const started = await this.nextPass();
      if (started === 0 && this.attempts.size === 0 && this.lanes.quiet()) return;
      await Promise.allSettled([...this.attempts]);
    }
  }

  /**
   * How many attempts the next pass to begin starts: one begun before the call may have read the
   * clocks before they moved. The loop is not woken for it: on SQLite a pass runs without leaving
   * the microtask queue, so passes asked for back to back would starve the projections they wait for.
   * A quiet loop's longer pause is cut to the shortest one, though: the caller is waiting for it.
   */
  private nextPass(): Promise<number> {
    if (this.idlePasses > 1) setTimeout(() => this.wake?.(), IDLE_POLL_MS).unref();
    this.idlePasses = 0;
    return new Promise((tell) => this.passWatchers.push({ after: this.passes, tell }));
  }

  private passed(pass: number, started: number): void {
    const told = this.passWatchers.filter((watcher) => watcher.after < pass);
    this.passWatchers = this.passWatchers.filter((watcher) => watcher.after >= pass);
    for (const { tell } of told) tell(started);
  }

  private async run(): Promise<void> {
    await this.awaitRecordedAttempts().catch((error) => this.deps.log.error('webhook dispatcher could not read the delivery logs', error));
    while (!this.stopped) {
      try {
        const pass = ++this.passes;
        await this.purgeWhenDue();
        const started = await this.pass();
        this.passed(pass, started);
        this.idlePasses = started === 0 ? this.idlePasses + 1 : 0;
        if (started === 0) await this.pause(idlePauseMs(this.idlePasses));
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
    for (const doc of await this.deps.cell.readModels.all<TargetsDoc>(WEBHOOK_TARGETS)) {
      for (const { id } of doc.endpoints) {
        const latest = await this.deps.cell.events.lastEventOf(deliveryLogOf(id));
        if (latest && latest.position > last) last = latest.position;
      }
    }
    while (!this.stopped && ((await this.deps.cell.readModels.getCheckpoint(this.deps.outboxCheckpoint)) ?? -1n) < last) await this.pause(IDLE_POLL_MS);
  }

  /** Brings the book up to the outbox's checkpoint and starts an attempt for every ready lane there is room for; returns how many started. */
  private async pass(): Promise<number> {
    const checkpoint = await this.deps.cell.readModels.getCheckpoint(this.deps.outboxCheckpoint);
    if (checkpoint === undefined) return 0;
    await this.follow(checkpoint);
    await this.settleFolded(checkpoint);
    await this.promoteDue();
    return this.dispatchReady();
  }

  /**
   * Reads into the books the lanes and endpoints the outbox changed up to `checkpoint`: at first
   * all of them. The checkpoint bounds the read, since on MongoDB the outbox's writes land before
   * its checkpoint, not all at once; both books then stand at the same point of the log.
   */
  private async follow(checkpoint: bigint): Promise<void> {
    if (this.followedUpTo === checkpoint) return;
    for await (const doc of this.changedUpTo<TargetsDoc>(WEBHOOK_TARGETS, checkpoint)) this.targets.see(doc);
    for await (const lane of this.changedUpTo<LaneDoc>(WEBHOOK_LANES, checkpoint)) this.lanes.see(lane);
    this.followedUpTo = checkpoint;
  }

  /** The documents of `collection` changed after what the books hold, up to `checkpoint`, in the order of their changes; at first all of them. */
  private async *changedUpTo<T extends { id: string; changed_at: string }>(collection: string, checkpoint: bigint): AsyncGenerator<T> {
    const where: Condition[] =
      this.followedUpTo === undefined
        ? []
        : [
            { field: 'changed_at', op: 'gt', value: encodePosition(this.followedUpTo) },
            { field: 'changed_at', op: 'lte', value: encodePosition(checkpoint) },
          ];
    const sort = this.followedUpTo === undefined ? undefined : { field: 'changed_at', direction: 'asc' as const };
    for (let after: After | undefined; ; ) {
      const { items, hasMore } = await this.deps.cell.readModels.find<T>(collection, { where, sort, after, limit: PAGE });
      yield* items;
      if (!hasMore) return;
      const last = items[items.length - 1];
      after = { value: sort ? last.changed_at : last.id, id: last.id };
    }
  }

  /** Places again the lanes whose attempt records the outbox has folded, as it left them (gone: emptied). */
  private async settleFolded(checkpoint: bigint): Promise<void> {
    const folded = this.lanes.foldedBy(checkpoint, performance.now());
    if (folded.length === 0) return;
    const now = await this.deps.cell.readModels.getMany<LaneDoc>(WEBHOOK_LANES, folded);
    for (const id of folded) {
      const lane = now.get(id);
      if (lane) this.lanes.settle(lane);
      else this.lanes.forget(id);
    }
  }

  /** Makes ready the lanes now due on their clocks: the system clock, or a sandbox test clock (a deleted one no longer holds its lanes back). */
  private async promoteDue(): Promise<void> {
    const nowOn = new Map<string, string>();
    for (const clock of this.lanes.waitingClocks()) nowOn.set(clock, (await this.now(clock)).toISOString());
    this.lanes.promote(performance.now(), nowOn);
  }

  private async now(clock: string): Promise<Date> {
    if (clock === SYSTEM_CLOCK_LANES) return this.deps.clocks.system.now();
    return this.deps.clocks.now(this.deps.cell, clock).catch(() => this.deps.clocks.system.now());
  }

  /**
   * Takes the ready lanes of the enabled endpoints, as many as each endpoint and the cell have
   * room for, and starts their attempts; reads documents only for the lanes taken. The ready lanes
   * of deleted endpoints are forgotten.
   */
  private async dispatchReady(): Promise<number> {
    const taken: LaneDoc[] = [];
    for (const endpointId of this.lanes.endpointsWithReadyLanes()) {
      const target = this.targets.get(endpointId);
      if (!target) {
        this.lanes.forgetReady(endpointId);
        continue;
      }
      const room = Math.min(PER_ENDPOINT_CONCURRENCY - this.lanes.sendingOf(endpointId), TOTAL_CONCURRENCY - this.lanes.totalSending);
      if (target.status === 'enabled' && room > 0) taken.push(...this.lanes.take(endpointId, room));
    }
    if (taken.length === 0) return 0;
    const { readModels } = this.deps.cell;
    const deliveries = await readModels.getMany<DeliveryDoc>(WEBHOOK_DELIVERIES, taken.map((lane) => lane.head));
    const events = await readModels.getMany<PublicEventDoc>(PUBLIC_EVENTS, [...new Set([...deliveries.values()].map((delivery) => delivery.event_id))]);
    let started = 0;
    for (const lane of taken) {
      const delivery = deliveries.get(lane.head);
      const event = delivery && events.get(delivery.event_id);
      const target = this.targets.get(lane.webhook_endpoint_id)!;
      // The event's own projection has not written it yet.
      if (!delivery || delivery.status !== 'pending' || !event) {
        this.lanes.hold(lane.id, performance.now() + HOLD_MS);
        continue;
      }
      this.begin(lane, this.attempt(target, lane, delivery, event));
      started++;
    }
    return started;
  }

  private begin(lane: LaneDoc, attempt: Promise<bigint>): void {
    const running = attempt
      .then((position) => this.lanes.recorded(lane.id, position))
      .catch((error) => {
        this.deps.log.error(`webhook delivery ${lane.head} could not be recorded`, error);
        this.lanes.answered(lane.id);
        this.lanes.recorded(lane.id, undefined, performance.now() + UNRECORDED_RETRY_MS);
      })
      .finally(() => {
        this.attempts.delete(running);
        this.wake?.();
      });
    this.attempts.add(running);
  }

  /**
   * POSTs the delivery, then records the attempt (and, when it gave up, the endpoint's failure
   * first); answers the record's position. The endpoint's slot is free once the receiver
   * answered. The attempt and its retries are timed on the lane's clock.
   */
  private async attempt(target: DeliveryTarget, lane: LaneDoc, delivery: DeliveryDoc, event: PublicEventDoc): Promise<bigint> {
    const { tenant_id: tenantId, environment } = lane;
    const attemptedAt = await this.attemptTime(lane);
    const signedAt = this.deps.clocks.system.now();
    const secrets = await this.secrets.alive(target, signedAt);
    const response = await this.deps.sender.send(deliveryRequest(target, secrets, environment, delivery, event, tenantId, signedAt));
    this.lanes.answered(lane.id);
    this.wake?.();
    const record = attemptRecord(this.deps.ids.ulid(), delivery, attemptedAt, response);
    const context: RequestContext = { tenantId, environment: environment as RequestContext['environment'], region: this.deps.cell.region, actor: 'system', requestId: null, correlationId: delivery.event_id, causationId: delivery.event_id };
    this.deps.fence.assertHeld();
    if (record.data.outcome === 'failed' && !delivery.manual_retry) await this.recordFailure(context, delivery, record.data);
    const { position } = await appendToDeliveryLog(this.deps.cell, target.id, [{ event: record, context }], this.deps.clocks.system.now());
    return position;
  }

  /**
   * When an attempt is made, on the lane's clock: now; or, on a test clock, when it was due, which
   * an advance may have passed together with later due times: each attempt is then made at its own
   * time, and its retry falls due from there, as the clock's timers fire during an advance.
   */
  private async attemptTime(lane: LaneDoc): Promise<Date> {
    if (lane.clock !== SYSTEM_CLOCK_LANES && lane.due_at !== DUE_NOW) return new Date(lane.due_at);
    return this.now(lane.clock);
  }

  /** `webhook_endpoint.delivery_failed`, once per delivery: the command id derives from it. */
  private async recordFailure(context: RequestContext, delivery: DeliveryDoc, attempted: WebhookDeliveryAttempted['data']): Promise<void> {
    const data = { webhook_endpoint_id: delivery.webhook_endpoint_id, delivery_id: delivery.id, event_id: delivery.event_id, event_type: delivery.event_type, attempts: attempted.attempt, failed_at: attempted.attempted_at };
    const failure = { ...context, commandId: derivedId('cmd', ['webhook_delivery_failed', delivery.id]) };
    await this.deps.commands.execute(webhookEndpointAggregate, delivery.webhook_endpoint_id, { type: 'RecordWebhookDeliveryFailure', data }, failure);
  }

  /** Deletes expired delivery records at most once an hour of the system clock. */
  private async purgeWhenDue(): Promise<void> {
    const now = this.deps.clocks.system.now();
    if (this.lastPurge !== undefined && now.getTime() - this.lastPurge < PURGE_EVERY_MS) return;
    this.lastPurge = now.getTime();
    this.deps.fence.assertHeld();
    await purgeExpiredDeliveries(this.deps.cell.readModels, this.deps.outboxCheckpoint, now);
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
