import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Stripe from 'stripe';
import { ManualClock } from '@tally/kernel';
import { listAll } from './support/list-all';
import { TallyUnderTest } from './support/tally';
import { startTsChild, type TsChild } from './support/ts-child-process';
import { settleRetries, WebhookReceiver, type ReceivedDelivery } from './support/webhook-receiver';
import { CUSTOMERS } from './support/webhook-crash-child';
import { scaled } from './support/time-scale';

const CHILD_LIMIT_MS = scaled(60_000);
/** The child is killed when a delivery arrives after this many were answered 200. */
const KILL_AFTER_ACKS = 30;
/** The child's manual clock, never advanced: every delivery it signs carries this time. */
const CRASH_SECONDS = Date.parse('2026-05-01T10:00:00.000Z') / 1000;
/** The restarted Tally's clock starts a minute on, so a signature's `t` tells which process sent the delivery. */
const RESTART_TIME = '2026-05-01T10:01:00.000Z';
const RESTART_SECONDS = Date.parse(RESTART_TIME) / 1000;

type LoggedEvent = ReceivedDelivery['event'];
interface DeliveryRecord {
  event_id: string;
  status: string;
  attempt_count: number;
  attempts: { response_status: number | null }[];
  next_attempt_at: string | null;
}

const stripe = new Stripe('sk_test_unused');
const signedAt = (delivery: ReceivedDelivery) => Number(/^t=(\d+),/.exec(delivery.headers['service-signature'] as string)?.[1]);
const fromChild = (delivery: ReceivedDelivery) => signedAt(delivery) === CRASH_SECONDS;
const sequences = (deliveries: readonly ReceivedDelivery[]) => deliveries.map((delivery) => delivery.event.sequence);
const groupBy = <T>(items: readonly T[], key: (item: T) => string): Map<string, T[]> => {
  const groups = new Map<string, T[]>();
  for (const item of items) groups.set(key(item), [...(groups.get(key(item)) ?? []), item]);
  return groups;
};

describe('webhook dispatcher killed with SIGKILL while deliveries are in flight', () => {
  let dataDir: string;
  let receiver: WebhookReceiver | undefined;

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'tally-webhooks-crash-'));
    // The receiver shares this process with the restarted Tally. A first start here compiles the
    // OpenAPI contract and warms Nest, which blocks the event loop for seconds on a loaded machine:
    // done now, it cannot hold up answers to deliveries under way (their sender would time out).
    await (await TallyUnderTest.start()).stop();
  });

  afterAll(async () => {
    await receiver?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('delivers every event after the restart, in order per aggregate, repeating only what was in flight, with the same event id', async () => {
    let victim: TsChild | undefined;
    let answered = 0;
    /** Indexes in `received` of the deliveries whose 200 has not been written yet. */
    const open = new Set<number>();
    let unansweredAtKill: ReadonlySet<number> | undefined;
    const hooks = await WebhookReceiver.start(() => {
      const index = hooks.received.length;
      const delayMs = 20 + Math.floor(Math.random() * 60);
      open.add(index);
      // Set before the receiver's own timer of the same delay, so it fires just before the answer is written.
      setTimeout(() => {
        open.delete(index);
        answered++;
      }, delayMs);
      if (victim && !unansweredAtKill && answered >= KILL_AFTER_ACKS) {
        victim.child.kill('SIGKILL');
        unansweredAtKill = new Set(open);
      }
      return { status: 200, delayMs };
    });
    receiver = hooks;

    let ready: string[] = [];
    let written = 0;
    const child = startTsChild('webhook-crash-child.ts', [dataDir, hooks.url], (line) => {
      const [word, ...values] = line.split(' ');
      if (word === 'ready') ready = values;
      if (word === 'wrote') written = Math.max(written, Number(values[0]) + 1);
    });
    victim = child;
    const limit = setTimeout(() => child.child.kill('SIGKILL'), CHILD_LIMIT_MS);
    const { signal } = await child.closed;
    clearTimeout(limit);
    expect({ signal, stderr: child.stderr(), killedByReceiver: unansweredAtKill !== undefined }).toEqual({ signal: 'SIGKILL', stderr: '', killedByReceiver: true });
    const [key, endpointId, secret] = ready;
    // The delivery whose arrival triggered the kill at least was still waiting for its answer.
    expect(unansweredAtKill!.size).toBeGreaterThan(0);

    const tally = await TallyUnderTest.start({ dataDir, clock: new ManualClock(RESTART_TIME) });
    try {
      const api = tally.as(key);
      await tally.settle();
      const logged = await listAll<LoggedEvent>(api, '/v1/events?type[starts]=customer.');
      // One event per write; the write under way at the kill may or may not have been committed.
      expect(logged.length).toBeGreaterThanOrEqual(written);
      expect(logged.length).toBeLessThanOrEqual(written + 1);
      expect(new Set(logged.map((event) => event.aggregate_id)).size).toBe(CUSTOMERS);

      const deliveries = `/v1/admin/webhook-endpoints/${endpointId}/deliveries`;
      const acknowledgedIds = () => new Set(hooks.acknowledged.map((delivery) => delivery.event.id));
      // Settled, every delivery due was attempted and recorded. A retry (an attempt the dispatcher
      // saw fail, say a timeout on a busy machine) waits on the manual clock, which moves on to it.
      await settleRetries(tally, api, endpointId);
      expect(open.size).toBe(0);
      const received = hooks.received;
      const records = new Map((await listAll<DeliveryRecord>(api, deliveries)).map((record) => [record.event_id, record]));

      // Every request was answered 200 (the receiver lets none time out), so each counts as acknowledged.
      expect(received.every((delivery) => delivery.answered === 200)).toBe(true);
      // Signed with the endpoint's secret, at the time of the process that sent it; the event id in the header is the body's.
      const now = Math.floor(tally.clock.now().getTime() / 1000);
      for (const delivery of received) {
        expect(stripe.webhooks.constructEvent(delivery.body, delivery.headers['service-signature'] as string, secret, 300, undefined, now).id).toBe(delivery.event.id);
        expect(fromChild(delivery) || signedAt(delivery) >= RESTART_SECONDS).toBe(true);
        expect(delivery.headers['service-event-id']).toBe(delivery.event.id);
        expect(delivery.headers['service-event-type']).toBe(delivery.event.type);
      }

      // (a) Nothing lost: every customer event of the log was acknowledged, as the log shows it,
      // and nothing else was sent; the outbox has one delivery per event, each succeeded.
      const loggedById = new Map(logged.map((event) => [event.id, event]));
      expect([...acknowledgedIds()].sort()).toEqual([...loggedById.keys()].sort());
      for (const delivery of received) expect(delivery.event).toEqual(loggedById.get(delivery.event.id));
      expect([...records.keys()].sort()).toEqual([...loggedById.keys()].sort());
      expect([...records.values()].filter((record) => record.status !== 'succeeded')).toEqual([]);

      // (b) Order per aggregate, in the order the receiver got them: all the child's deliveries
      // came before the restarted app's; the child's have strictly increasing sequences (its clock
      // never moves, so it retries nothing); and taken together the sequences never go down: an
      // event is only ever repeated right after itself, before its successor was sent.
      const indexOf = new Map(received.map((delivery, index) => [delivery, index]));
      const lastBeforeKill = new Set<string>();
      for (const [aggregate, lane] of groupBy(received, (delivery) => delivery.event.aggregate_id)) {
        const before = lane.filter(fromChild);
        const after = lane.filter((delivery) => !fromChild(delivery));
        expect(Math.max(-1, ...before.map((delivery) => indexOf.get(delivery)!))).toBeLessThan(Math.min(Infinity, ...after.map((delivery) => indexOf.get(delivery)!)));
        const strictly = sequences(before).every((sequence, i, all) => i === 0 || sequence > all[i - 1]);
        const nonDecreasing = sequences(lane).every((sequence, i, all) => i === 0 || sequence >= all[i - 1]);
        expect({ aggregate, sequences: sequences(lane), strictly, nonDecreasing }).toMatchObject({ strictly: true, nonDecreasing: true });
        if (before.length > 0) lastBeforeKill.add(before[before.length - 1].event.id);
      }

      // (c) Duplicates carry the same event and delivery id and the same body, and each has a
      // cause: an attempt the dispatcher recorded as not answered 2xx (it retried it), or the kill,
      // which may repeat once the lane's delivery in flight then (the child either had no answer
      // yet or had not recorded it in the outbox). So an event is received at most (its recorded
      // failed attempts + 1) times, plus once more if it was its lane's last before the kill.
      for (const [eventId, copies] of groupBy(received, (delivery) => delivery.event.id)) {
        expect(new Set(copies.map((copy) => copy.headers['service-delivery-id'])).size).toBe(1);
        expect(new Set(copies.map((copy) => copy.body)).size).toBe(1);
        const failedAttempts = records.get(eventId)!.attempts.filter((attempt) => attempt.response_status === null || attempt.response_status >= 300).length;
        const allowed = 1 + failedAttempts + (lastBeforeKill.has(eventId) ? 1 : 0);
        expect({ eventId, copies: copies.length }).toEqual({ eventId, copies: Math.min(copies.length, allowed) });
      }
      // A delivery surely not yet answered at the kill is always sent again by the restarted app.
      for (const index of unansweredAtKill!) {
        const inFlight = received[index];
        expect(fromChild(inFlight)).toBe(true);
        expect(received.some((delivery) => delivery.event.id === inFlight.event.id && !fromChild(delivery))).toBe(true);
      }
    } finally {
      await tally.stop({ keepData: true });
    }
  }, scaled(150_000));
});
