import { DomainError, ManualClock, UlidGenerator, type Command, type Decider, type Event } from '@tally/kernel';
import type { CellRegistry, RequestContext } from '@tally/cells';
import { TempCells } from '@tally/cells/testing/temp-cells';
import { Clocks } from '../clocks/clocks';
import type { AggregateDefinition } from '../commands/aggregate-definition';
import { CommandRuntime } from '../commands/command-runtime';
import { UnitOfWork } from '../projections/unit-of-work';
import type { ResourceView } from '../public-events/resource-view';
import { ScopedReads } from '../queries/scoped-reads';
import { defineResource } from './resource';
import { ResourceReads } from './resource-reads';

type Tallied = Event<'Tallied', { tally_id: string; owner: string; by: number }>;
type Tally = Command<'Tally', { tally_id: string; owner: string; by: number }>;
type TallyResource = { id: string; object: 'tally'; owner: string; total: number; favourite: boolean; read_at?: string; updated_at: string; created_at: string };

const tallyView: ResourceView<TallyResource, Tallied> = {
  aggregateType: 'tally',
  collection: 'tallies',
  apply: (tally, event) => ({
    id: event.data.tally_id,
    object: 'tally',
    owner: event.data.owner,
    total: (tally?.total ?? 0) + event.data.by,
    favourite: tally?.favourite ?? false,
    created_at: tally?.created_at ?? event.metadata.occurred_at,
    updated_at: event.metadata.occurred_at,
  }),
  publicTypes: ['tally.updated'],
  publicType: (event) => (event.data.by > 0 ? 'tally.updated' : undefined),
};
const tallyDecider: Decider<null, Tally, Tallied> = { initialState: () => null, evolve: () => null, decide: (command) => [{ type: 'Tallied', data: command.data }] };
const tallyAggregate: AggregateDefinition<null, Tally, Tallied, TallyResource> = {
  type: 'tally',
  decider: tallyDecider,
  view: tallyView,
  notFound: (id) => DomainError.notFound('tally.not_found', `No tally ${id}`),
};

/** Tallies by id or by name (`name:<id>`), read with the time they were read at, favoured by their owner's tally `fav-<owner>`. */
const tallies = defineResource({
  aggregate: tallyAggregate,
  indexes: [{ fields: ['tenant_id', 'environment', 'owner', 'created_at'] }],
  list: { sortable: ['created_at'], filters: { owner: { ops: ['eq'] } } },
  idOf: (_context, key) => key.replace(/^name:/, ''),
  at: (tally, moment) => ({ ...tally, read_at: moment }),
  asOfWith: { aggregate: tallyAggregate, idOf: (tally) => `fav-${tally.owner}`, complete: (tally, favourite) => ({ ...tally, favourite: ((favourite as TallyResource | undefined)?.total ?? 0) > 0 }) },
});

const context: RequestContext = { tenantId: 'ten_test', environment: 'sandbox', region: 'eu', actor: 'test', requestId: null, correlationId: null, causationId: null };

describe('a resource defined once', () => {
  const clock = new ManualClock(new Date('2026-05-01T10:00:00.000Z'));
  let temp: TempCells;
  let cells: CellRegistry;
  let runtime: CommandRuntime;
  let reads: ResourceReads;

  beforeEach(async () => {
    temp = new TempCells(clock);
    cells = temp.open();
    runtime = new CommandRuntime(cells, new Clocks(clock), new UlidGenerator(clock));
    reads = new ResourceReads(new ScopedReads(cells), runtime, clock);
    for (const collection of tallies.projection.collections) await cells.cell('eu').readModels.ensureCollection(collection.name, collection.indexes);
  });

  afterEach(async () => {
    await cells.close();
    temp.remove();
  });

  async function tally(id: string, by: number, owner = 'ada'): Promise<string> {
    const at = clock.advance(60_000).toISOString();
    await runtime.execute(tallyAggregate, id, { type: 'Tally', data: { tally_id: id, owner, by } }, context);
    return at;
  }

  async function project(): Promise<void> {
    const { events, readModels } = cells.cell('eu');
    const unit = new UnitOfWork(readModels);
    for (const event of await events.readAll({ limit: 100, filter: { streamPrefixes: tallies.projection.streamPrefixes } })) {
      await tallies.projection.handle(event, unit.writerFor(event));
    }
    await unit.commit(tallies.projection.name);
  }

  it('gives the projection of its view: its collection, its streams, its indexes and its public events', () => {
    expect(tallies.collection).toBe('tallies');
    expect(tallies.projection).toMatchObject({ name: 'tallies', streamPrefixes: ['tally-'], publishes: tallyView, resource: { collection: 'tallies', aggregateType: 'tally' } });
    expect(tallies.projection.collections[0]).toEqual({ name: 'tallies', indexes: [{ fields: ['tenant_id', 'environment', 'owner', 'created_at'] }] });
    expect(() => defineResource({ aggregate: { ...tallyAggregate, view: undefined }, indexes: [] })).toThrow('The tally aggregate has no view');
  });

  it('retrieves from the read model now, by the key the path names, as read now', async () => {
    await tally('t1', 2);
    await project();
    const now = clock.now().toISOString();
    await expect(reads.retrieve(tallies, context, 'name:t1')).resolves.toEqual({ resource: expect.objectContaining({ id: 't1', total: 2, read_at: now }), revision: 0 });
    await expect(reads.retrieve(tallies, context, 'name:t9')).rejects.toMatchObject({ code: 'tally.not_found' });
  });

  it('with as_of, folds the events up to that moment: 404 before the first, the earlier state between two', async () => {
    const before = new Date(clock.now().getTime() + 1_000).toISOString();
    const first = await tally('t1', 2);
    await tally('fav-ada', 1);
    const between = new Date(clock.now().getTime() + 1_000).toISOString();
    await tally('t1', 5);
    await project();

    await expect(reads.retrieve(tallies, context, 't1', before)).rejects.toMatchObject({ code: 'tally.not_found' });
    const earlier = await reads.retrieve(tallies, context, 't1', between);
    expect(earlier).toEqual({ revision: 0, resource: { id: 't1', object: 'tally', owner: 'ada', total: 2, favourite: true, created_at: first, updated_at: first, read_at: between } });
    expect((await reads.retrieve(tallies, context, 't1')).resource.total).toBe(7);
    await expect(reads.retrieve(tallies, context, 't1', 'yesterday')).rejects.toMatchObject({ code: 'request.invalid_parameter' });
  });

  it('completes an as_of read with the other aggregate as it was then, not as it is', async () => {
    await tally('t1', 2);
    const beforeFavourite = new Date(clock.now().getTime() + 1_000).toISOString();
    await tally('fav-ada', 1);
    expect((await reads.retrieve(tallies, context, 't1', beforeFavourite)).resource.favourite).toBe(false);
  });

  it('lists by its list spec, with the filters the route sets from its path in place of the client’s', async () => {
    await tally('t1', 2, 'ada');
    await tally('t2', 3, 'bob');
    await project();
    const page = await reads.list(tallies, context, { owner: 'ada' });
    expect(page.data.map((t) => t.id)).toEqual(['t1']);
    expect(page.data[0].read_at).toBe(clock.now().toISOString());
    expect((await reads.list(tallies, context, { owner: 'ada' }, { owner: 'bob' })).data.map((t) => t.id)).toEqual(['t2']);
    await expect(reads.list(tallies, context, { total: '2' })).rejects.toMatchObject({ code: 'request.invalid_parameter' });
  });
});
