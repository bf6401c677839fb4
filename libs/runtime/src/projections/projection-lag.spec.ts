import { ManualClock, UlidGenerator } from '@tally/kernel';
import type { CellRegistry } from '@tally/cells';
import { TempCells, testMetadata } from '@tally/cells/testing/temp-cells';
import type { Projection } from './projection';
import { LAG_COUNTED_UP_TO, ProjectionLag } from './projection-lag';

const things: Projection = { name: 'things', streamPrefixes: ['thing-'], collections: [], handle: async () => undefined };

describe('projection lag', () => {
  const clock = new ManualClock('2026-05-01T10:00:00.000Z');
  const ids = new UlidGenerator(clock);
  let temp: TempCells;
  let cells: CellRegistry;
  let lag: ProjectionLag;

  beforeEach(() => {
    temp = new TempCells(clock);
    cells = temp.open();
    lag = new ProjectionLag(cells, [things]);
  });

  afterEach(async () => {
    await cells.close();
    temp.remove();
  });

  const append = async (stream: string, count = 1): Promise<bigint> => {
    const events = Array.from({ length: count }, () => ({ id: ids.ulid(), type: 'happened', data: {}, metadata: testMetadata(clock.now().toISOString()) }));
    return (await cells.cell('eu').events.append(stream, events, { expectedRevision: 'any' })).position;
  };
  const commitThings = (position: bigint) => cells.cell('eu').readModels.commit([], { name: 'things', position });
  const lagOf = async (projection: string): Promise<number | undefined> =>
    (await lag.collect()).samples.find((s) => s.labels.projection === projection && s.labels.region === 'eu')?.value;

  it('counts the events of its streams after its checkpoint, not the other streams that move the head on', async () => {
    expect(await lagOf('things')).toBe(0);
    await append('thing-1');
    const second = await append('thing-2');
    const third = await append('thing-3');
    await append('other-1', 5);
    expect(await lagOf('things')).toBe(3);
    expect(await lagOf('timers')).toBe(0);

    await commitThings(second);
    expect(await lagOf('things')).toBe(1);
    await commitThings(third);
    expect(await lagOf('things')).toBe(0);

    await append('other-2', 3);
    await append('thing-4', 2);
    expect(await lagOf('things')).toBe(2);
  });

  it('names each projection and region, and stops counting at the cap', async () => {
    await append('thing-1', LAG_COUNTED_UP_TO + 1);
    const family = await lag.collect();
    expect(family).toMatchObject({ name: 'projection_lag_events', type: 'gauge' });
    expect(family.samples).toEqual([
      { name: 'projection_lag_events', labels: { projection: 'things', region: 'eu' }, value: LAG_COUNTED_UP_TO },
      { name: 'projection_lag_events', labels: { projection: 'timers', region: 'eu' }, value: 0 },
      { name: 'projection_lag_events', labels: { projection: 'parked_commands', region: 'eu' }, value: 0 },
      { name: 'projection_lag_events', labels: { projection: 'test_clocks', region: 'eu' }, value: 0 },
    ]);
  });
});
