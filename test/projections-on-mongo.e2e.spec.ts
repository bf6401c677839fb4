import { randomUUID } from 'node:crypto';
import { MongoClient } from 'mongodb';
import { MongoReadStore } from '@tally/readstore';
import { bindingsFor, catchUpProjection, ProjectionRunner, rebuildProjections, type ProjectionBinding } from '@tally/runtime';
import { CONTEXTS } from '../apps/contexts';
import { TallyUnderTest } from './support/tally';

const MONGO_URL = process.env.MONGO_URL;

/** Runs where MONGO_URL points at a MongoDB wire-protocol server (CI starts FerretDB for it). */
(MONGO_URL ? describe : describe.skip)('projections into MongoDB (MONGO_URL)', () => {
  let tally: TallyUnderTest;
  let client: MongoClient;
  let database: string;
  let mongo: MongoReadStore;
  let api: ReturnType<TallyUnderTest['as']>;

  const mongoBindings = (): ProjectionBinding[] =>
    bindingsFor(tally.cells.cell('eu'), tally.cells, CONTEXTS.projections)
      .filter((binding) => binding.projection.target !== 'directory')
      .map((binding) => ({ ...binding, store: mongo }));

  const collections = ['customers', 'events', 'timers'];
  const documents = (store: { all(c: string): Promise<unknown[]> }) => Promise.all(collections.map((c) => store.all(c)));

  beforeAll(async () => {
    tally = await TallyUnderTest.start();
    api = tally.as((await tally.tenant('Acme', 'eu')).sandbox);
    client = await MongoClient.connect(MONGO_URL!);
    database = `tally_projection_test_${randomUUID().replace(/-/g, '')}`;
    mongo = new MongoReadStore(client.db(database));

    for (let i = 0; i < 12; i++) {
      tally.clock.advance(1_000);
      const customer = (
        await api
          .post('/v1/customers', {
            email: `customer${i}@example.com`,
            name: `Customer ${i}`,
            billing_address: { line1: `${i} Main St`, city: 'Berlin', country: 'DE', postal_code: '10115' },
            metadata: { index: String(i), tier: i % 2 ? 'gold' : 'silver' },
          })
          .expect(200)
      ).body;
      if (i % 3 === 0) await api.patch(`/v1/customers/${customer.id}`, { name: `Renamed ${i}`, metadata: { tier: '' } }).expect(200);
      if (i % 4 === 0) await api.post(`/v1/customers/${customer.id}/tax-ids`, { type: 'eu_vat', value: i % 8 ? 'DE136695976' : 'DE136695977' }).expect(200);
    }
    await tally.settle();
  });

  afterAll(async () => {
    await client.db(database).dropDatabase();
    await client.close();
    await tally.stop();
  });

  it('rebuilds the read models into MongoDB document for document as SQLite holds them', async () => {
    await rebuildProjections(mongoBindings());
    const [customers, events] = await documents(mongo);
    expect(customers).toHaveLength(12);
    expect(events.length).toBeGreaterThan(12);
    expect(await documents(mongo)).toEqual(await documents(tally.cells.cell('eu').readModels));
  });

  it('changes nothing when the whole log is replayed over it again', async () => {
    const before = await documents(mongo);
    for (const binding of mongoBindings()) {
      await mongo.commit([], { name: binding.checkpoint, position: 0n });
      await catchUpProjection(binding);
    }
    expect(await documents(mongo)).toEqual(before);
  });

  it('keeps MongoDB up to date with the live projection runner', async () => {
    const runners = mongoBindings().map((binding) => new ProjectionRunner(binding, { error: (message, error) => console.error(message, error) }));
    for (const runner of runners) await runner.start();
    try {
      const customer = (await api.post('/v1/customers', { email: 'live@example.com' }).expect(200)).body;
      await api.patch(`/v1/customers/${customer.id}`, { name: 'Live' }).expect(200);
      await tally.settle();
      const head = await tally.head('eu');
      await Promise.all(runners.map((runner) => runner.whenCaughtUp(head)));
      expect(await mongo.get('customers', customer.id)).toMatchObject({ id: customer.id, name: 'Live' });
      expect(await documents(mongo)).toEqual(await documents(tally.cells.cell('eu').readModels));
    } finally {
      for (const runner of runners) await runner.stop();
    }
  });
});
