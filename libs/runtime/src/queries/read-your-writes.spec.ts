import { ManualClock } from '@tally/kernel';
import type { CellRegistry, RequestContext } from '@tally/cells';
import { TempCells, testMetadata } from '@tally/cells/testing/temp-cells';
import { TallyMetrics } from '@tally/observability';
import type { Projection } from '../projections/projection';
import { ReadYourWrites } from './read-your-writes';

/** A projection that never runs here: the test moves its checkpoint by hand, as its runner would commit. */
const notes: Projection = {
  name: 'notes',
  streamPrefixes: ['note-'],
  collections: [{ name: 'notes', indexes: [] }],
  resource: { collection: 'notes', aggregateType: 'note' },
  handle: async () => undefined,
};

const caller: RequestContext = { tenantId: 'ten_test', environment: 'sandbox', region: 'eu', actor: 'key:key_1', requestId: 'req_1', correlationId: null, causationId: null };
const processActor: RequestContext = { ...caller, actor: 'process:dunning', requestId: null };

describe('ReadYourWrites', () => {
  let temp: TempCells;
  let cells: CellRegistry;
  let metrics: TallyMetrics;
  let reads: ReadYourWrites;

  beforeEach(() => {
    temp = new TempCells(new ManualClock('2026-05-01T10:00:00.000Z'));
    cells = temp.open();
    metrics = new TallyMetrics();
    reads = new ReadYourWrites(cells, [notes], metrics, 200);
  });

  afterEach(async () => {
    await cells.close();
    temp.remove();
  });

  let written = 0;
  const write = async (stream: string) => (await cells.cell('eu').events.append(stream, [{ id: `e_${++written}`, type: 'Noted', data: {}, metadata: testMetadata('2026-05-01T10:00:00.000Z') }], { expectedRevision: 'any' })).position;
  const commit = (position: bigint) => cells.cell('eu').readModels.commit([], { name: 'notes', position });
  const waits = () => metrics.readWaits.collect().samples.map((sample) => [sample.labels.outcome, sample.value]);

  it('answers at once when the projection has committed what the caller wrote', async () => {
    await commit(await write('note-1'));
    await reads.awaitWrites(caller, 'notes');
    expect(waits()).toEqual([]);
  });

  it('waits until the projection commits the caller’s write, and counts the wait', async () => {
    const position = await write('note-1');
    const read = reads.awaitWrites(caller, 'notes');
    await new Promise((resolve) => setTimeout(resolve, 20));
    await commit(position);
    await read;
    expect(waits()).toEqual([['caught_up', 1]]);
  });

  it('does not wait for events of streams the projection does not follow', async () => {
    await write('other-1');
    await reads.awaitWrites(caller, 'notes');
    expect(waits()).toEqual([]);
  });

  it('answers with what the read model holds once the wait runs out, and counts that', async () => {
    await write('note-1');
    await reads.awaitWrites(caller, 'notes');
    expect(waits()).toEqual([['timed_out', 1]]);
  });

  it('lets process managers, reactions and the system read as the read models stand', async () => {
    await write('note-1');
    await reads.awaitWrites(processActor, 'notes');
    expect(await reads.awaitStream(processActor, 'notes', '1', undefined)).toBe(false);
    expect(waits()).toEqual([]);
  });

  it('has a retrieve wait for the resource’s last event when its document is behind it, whoever wrote it', async () => {
    const position = await write('note-1');
    await commit(position);
    expect(await reads.awaitStream(caller, 'notes', '1', 0)).toBe(false);
    expect(await reads.awaitStream(caller, 'notes', '2', undefined)).toBe(false);
    const later = await write('note-1');
    const read = reads.awaitStream(caller, 'notes', '1', 0);
    await commit(later);
    expect(await read).toBe(true);
  });
});
