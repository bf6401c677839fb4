import Database from 'better-sqlite3';
import type { RecordedEvent } from '@tally/eventstore';
import { encodePosition, SqliteReadStore, type ReadStore } from '@tally/readstore';
import { DUE_NOW, laneId, targetsId, WEBHOOK_DELIVERIES, WEBHOOK_LANES, WEBHOOK_TARGETS, type DeliveryDoc, type LaneDoc, type TargetsDoc } from './outbox-documents';
import { AT, attempted, created, customer, customerOnClock, deliveryOf, endpointEvent, logged, OTHER, projectInto, WE } from './testing/outbox-log';

const databases: Database.Database[] = [];
afterEach(() => databases.splice(0).forEach((db) => db.close()));

async function project(events: readonly RecordedEvent[]): Promise<ReadStore> {
  const db = new Database(':memory:');
  databases.push(db);
  return projectInto(new SqliteReadStore(db), events);
}

const lane = (store: ReadStore, endpoint: string, aggregate: string) => store.get<LaneDoc>(WEBHOOK_LANES, laneId(endpoint, aggregate));
const delivery = (store: ReadStore, id: string) => store.get<DeliveryDoc>(WEBHOOK_DELIVERIES, id);

describe('the webhook outbox', () => {
  it('makes one delivery per enabled endpoint whose filter matches, from the point of the log where the endpoint exists', async () => {
    const before = customer('cus_1', 'CustomerCreated');
    const first = customer('cus_1');
    const internal = customer('cus_1', 'CustomerNoted');
    const store = await project([before, created(WE, ['customer.updated']), created(OTHER, ['invoice.*']), first, internal, created('we_3', ['*'], 'ten_2')]);
    const all = await store.all<DeliveryDoc>(WEBHOOK_DELIVERIES);
    expect(all.map((doc) => [doc.webhook_endpoint_id, doc.event_id, doc.event_type, doc.aggregate_id, doc.sequence, doc.status])).toEqual([[WE, `evt_${first.id}`, 'customer.updated', 'cus_1', 1, 'pending']]);
    expect(all[0].id).toBe(deliveryOf(WE, first));
  });

  it('queues one aggregate’s deliveries in a lane, due at once, in commit order, and moves on when the first succeeds', async () => {
    const events = [created(WE, ['*']), customer('cus_1'), customer('cus_1'), customer('cus_1')];
    const [, one, two, three] = events;
    let store = await project(events);
    expect(await lane(store, WE, 'cus_1')).toMatchObject({ head: deliveryOf(WE, one), tail: deliveryOf(WE, three), due_at: DUE_NOW, clock: 'system' });
    expect((await delivery(store, deliveryOf(WE, one)))!.next_in_lane).toBe(deliveryOf(WE, two));

    store = await project([...events, attempted(deliveryOf(WE, one), 1, 'succeeded')]);
    expect(await lane(store, WE, 'cus_1')).toMatchObject({ head: deliveryOf(WE, two), due_at: DUE_NOW });
    expect(await delivery(store, deliveryOf(WE, one))).toMatchObject({ status: 'succeeded', attempt_count: 1, response_status: 200, first_attempted_at: AT });
  });

  it('stamps a lane with the position of the event that last changed it, which the dispatcher follows', async () => {
    const events = [created(WE, ['*']), customer('cus_1'), customer('cus_1')];
    const [, one, two] = events;
    const queued = await project(events);
    expect((await lane(queued, WE, 'cus_1'))!.changed_at).toBe(encodePosition(two.position));

    const success = attempted(deliveryOf(WE, one), 1, 'succeeded');
    const moved = await project([...events, success]);
    expect((await lane(moved, WE, 'cus_1'))!.changed_at).toBe(encodePosition(success.position));
  });

  it('stamps a tenant’s endpoints with the position of the endpoint event that last changed them, and not for a description', async () => {
    const start = [created(WE, ['*']), customer('cus_1')];
    const disabled = endpointEvent({ type: 'WebhookEndpointUpdated', data: { webhook_endpoint_id: WE, status: 'disabled' } });
    const described = endpointEvent({ type: 'WebhookEndpointUpdated', data: { webhook_endpoint_id: WE, description: 'quiet' } });
    const store = await project([...start, disabled, described]);
    expect(await store.get<TargetsDoc>(WEBHOOK_TARGETS, targetsId('ten_1', 'sandbox'))).toMatchObject({ changed_at: encodePosition(disabled.position), endpoints: [expect.objectContaining({ id: WE, status: 'disabled' })] });
  });

  it('keeps a retrying delivery at the head until its next attempt, and empties the lane when the last one fails for good', async () => {
    const events = [created(WE, ['*']), customer('cus_1')];
    const id = deliveryOf(WE, events[1]);
    const retrying = await project([...events, attempted(id, 1, 'retrying', '2026-05-01T10:00:05.000Z')]);
    expect(await lane(retrying, WE, 'cus_1')).toMatchObject({ head: id, due_at: '2026-05-01T10:00:05.000Z' });
    const failed = await project([...events, attempted(id, 1, 'retrying', '2026-05-01T10:00:05.000Z'), attempted(id, 2, 'failed')]);
    expect(await lane(failed, WE, 'cus_1')).toBeUndefined();
    expect(await delivery(failed, id)).toMatchObject({ status: 'failed', attempt_count: 2, next_attempt_at: null });
  });

  it('makes a lane on a test clock due at its event’s time there, and the next delivery when the one before ended or its own event happened, whichever is later', async () => {
    const [clock, t0, t1, t2] = ['clock_1', '2027-01-01T00:00:00.000Z', '2027-01-01T01:00:00.000Z', '2027-01-01T02:00:00.000Z'];
    const events = [created(WE, ['*']), customerOnClock('cus_1', clock, t0), customerOnClock('cus_1', clock, t1), customerOnClock('cus_1', clock, t1)];
    const [one, two, three] = events.slice(1).map((event) => deliveryOf(WE, event));
    expect(await lane(await project(events), WE, 'cus_1')).toMatchObject({ head: one, due_at: t0, clock });

    const endedLater = await project([...events, attempted(one, 1, 'retrying', t2, t0), attempted(one, 2, 'succeeded', null, t2)]);
    expect(await lane(endedLater, WE, 'cus_1')).toMatchObject({ head: two, due_at: t2 });
    const endedEarlier = await project([...events, attempted(one, 1, 'succeeded', null, t0)]);
    expect(await lane(endedEarlier, WE, 'cus_1')).toMatchObject({ head: two, due_at: t1 });
    // A manual retry, asked for now, queues behind the lane and is due at once when its turn comes.
    const retried = await project([
      ...events,
      attempted(one, 1, 'succeeded', null, t0),
      logged({ type: 'WebhookDeliveryRetryRequested', data: { delivery_id: one } }),
      attempted(two, 1, 'succeeded', null, t1),
      attempted(three, 1, 'succeeded', null, t2),
    ]);
    expect(await lane(retried, WE, 'cus_1')).toMatchObject({ head: one, due_at: DUE_NOW });
  });

  it('ignores a second record of the same attempt', async () => {
    const events = [created(WE, ['*']), customer('cus_1'), customer('cus_1')];
    const id = deliveryOf(WE, events[1]);
    const store = await project([...events, attempted(id, 1, 'succeeded'), attempted(id, 1, 'succeeded')]);
    expect(await delivery(store, id)).toMatchObject({ attempt_count: 1, attempts: [expect.objectContaining({ attempt: 1 })] });
    expect((await lane(store, WE, 'cus_1'))!.head).toBe(deliveryOf(WE, events[2]));
  });

  it('delivers nothing new to a disabled or deleted endpoint', async () => {
    const store = await project([
      created(WE, ['*']),
      created(OTHER, ['*']),
      endpointEvent({ type: 'WebhookEndpointUpdated', data: { webhook_endpoint_id: WE, status: 'disabled' } }),
      endpointEvent({ type: 'WebhookEndpointDeleted', data: { webhook_endpoint_id: OTHER } }),
      customer('cus_1'),
    ]);
    expect(await store.all(WEBHOOK_DELIVERIES)).toEqual([]);
  });

  it('never tells an endpoint of its own failures', async () => {
    const failure = endpointEvent({ type: 'WebhookDeliveryFailed', data: { webhook_endpoint_id: WE, delivery_id: 'del_x', event_id: 'evt_x', event_type: 'customer.updated', attempts: 8, failed_at: AT } });
    const store = await project([created(WE, ['*']), created(OTHER, ['webhook_endpoint.*']), failure]);
    expect((await store.all<DeliveryDoc>(WEBHOOK_DELIVERIES)).map((doc) => [doc.webhook_endpoint_id, doc.event_type])).toEqual([[OTHER, 'webhook_endpoint.delivery_failed']]);
  });

  it('queues a manual retry of a finished delivery behind its lane, and a replay as new deliveries of the same events in the given order', async () => {
    const events = [created(WE, ['*']), customer('cus_1'), customer('cus_1')];
    const [one, two] = [deliveryOf(WE, events[1]), deliveryOf(WE, events[2])];
    const done = [...events, attempted(one, 1, 'succeeded'), attempted(two, 1, 'succeeded')];
    const retried = await project([...done, logged({ type: 'WebhookDeliveryRetryRequested', data: { delivery_id: one } })]);
    expect(await delivery(retried, one)).toMatchObject({ status: 'pending', manual_retry: true, attempt_count: 1 });
    expect(await lane(retried, WE, 'cus_1')).toMatchObject({ head: one, tail: one, due_at: DUE_NOW });

    const replayed = await project([...done, logged({ type: 'WebhookReplayRequested', data: { replay_id: 'whrp_1', webhook_endpoint_id: WE, delivery_ids: [one, two, 'del_unknown'] } })]);
    const fresh = (await replayed.all<DeliveryDoc>(WEBHOOK_DELIVERIES)).filter((doc) => doc.replay_of !== null);
    expect(fresh.map((doc) => [doc.replay_of, doc.event_id, doc.status, doc.attempt_count])).toEqual(
      expect.arrayContaining([
        [one, `evt_${events[1].id}`, 'pending', 0],
        [two, `evt_${events[2].id}`, 'pending', 0],
      ]),
    );
    const head = (await lane(replayed, WE, 'cus_1'))!;
    expect((await delivery(replayed, head.head))!.replay_of).toBe(one);
    expect((await delivery(replayed, head.tail))!.replay_of).toBe(two);
  });
});
