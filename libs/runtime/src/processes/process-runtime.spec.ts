import { ManualClock, UlidGenerator, type ProcessDecider, type ProcessInput } from '@tally/kernel';
import type { CellRegistry } from '@tally/cells';
import { TempCells } from '@tally/cells/testing/temp-cells';
import { Clocks } from '../clocks/clocks';
import { ProcessEvents, processStream, type CommandIssuedData, type ProcessManager } from './process-manager';
import { KEPT_INPUT_IDS, ProcessRuntime, type ProcessOwner } from './process-runtime';

type Seen = ProcessInput<'Seen', { n: number }>;
type Tally = { type: 'Tally'; data: { inputs: number; sum: number } };

/** Counts its inputs and sums them, and says so in a command after each one. */
const tallying: ProcessDecider<{ inputs: number; sum: number }, Seen, { kind: 'command'; command: Tally }> = {
  initialState: () => ({ inputs: 0, sum: 0 }),
  evolve: (state, message) => (message.kind === 'input' ? { inputs: state.inputs + 1, sum: state.sum + message.input.data.n } : state),
  decide: (input, state) => [{ kind: 'command', command: { type: 'Tally', data: { inputs: state.inputs + 1, sum: state.sum + input.data.n } } }],
};

const manager = (snapshot?: ProcessManager['snapshot'], startsOn?: string[]): ProcessManager<{ inputs: number; sum: number }, Seen, Tally> => ({
  name: 'tallying',
  streamPrefixes: [],
  route: () => undefined,
  decider: tallying as ProcessManager<{ inputs: number; sum: number }, Seen, Tally>['decider'],
  dispatch: async () => undefined,
  ...(snapshot && { snapshot }),
  ...(startsOn && { startsOn }),
});

const owner: ProcessOwner = { tenant_id: 'ten_test', environment: 'sandbox', correlation_id: null };
const stream = processStream('tallying', 'p1');
const seen = (id: string, n = 1): Seen => ({ id, type: 'Seen', data: { n } });

describe('ProcessRuntime', () => {
  const clock = new ManualClock();
  const ids = new UlidGenerator(clock);
  let temp: TempCells;
  let cells: CellRegistry;

  beforeEach(() => {
    temp = new TempCells(clock);
    cells = temp.open();
  });

  afterEach(async () => {
    jest.restoreAllMocks();
    await cells.close();
    temp.remove();
  });

  /** A runtime with nothing in memory, as after a restart. */
  const fresh = (snapshot?: ProcessManager['snapshot']) => new ProcessRuntime(manager(snapshot), cells.cell('eu'), new Clocks(clock), ids);

  const lastTally = async () => {
    const events = await cells.cell('eu').events.readStream(stream, {});
    const issued = events.filter((event) => event.type === ProcessEvents.commandIssued);
    return { revision: events.length - 1, tally: (issued[issued.length - 1].data as CommandIssuedData).data };
  };

  const readsOf = () => {
    const events = cells.cell('eu').events;
    const read = events.readStream.bind(events);
    const lengths: number[] = [];
    jest.spyOn(events, 'readStream').mockImplementation(async (name, options) => {
      const found = await read(name, options);
      if (name === stream) lengths.push(found.length);
      return found;
    });
    return lengths;
  };

  it('drops, without a write, an input of an instance that has not started when the manager names the inputs that start one', async () => {
    const runtime = new ProcessRuntime(manager(undefined, ['Started']), cells.cell('eu'), new Clocks(clock), ids);
    await runtime.deliver('p1', seen('e1'), owner);
    expect(await cells.cell('eu').events.readStream(stream, {})).toEqual([]);
    await runtime.deliver('p1', { id: 'e2', type: 'Started', data: { n: 2 } } as unknown as Seen, owner);
    await runtime.deliver('p1', seen('e3', 3), owner);
    expect((await lastTally()).tally).toEqual({ inputs: 2, sum: 5 });
  });

  it('loads a long-lived process from its snapshot and reads only the events after it', async () => {
    const first = fresh({ every: 10, version: 1 });
    for (let i = 1; i <= 12; i++) await first.deliver('p1', seen(`in_${i}`, i), owner);
    // Two events an input, a snapshot every ten events: the latest is at revision 19, after the tenth input.
    const reads = readsOf();

    await fresh({ every: 10, version: 1 }).deliver('p1', seen('in_13', 13), owner);

    expect(reads).toEqual([4]);
    expect(await lastTally()).toEqual({ revision: 25, tally: { inputs: 13, sum: 91 } });
  });

  it('folds the whole stream for a manager without snapshots, or when the snapshot is of another version', async () => {
    const first = fresh({ every: 10, version: 1 });
    for (let i = 1; i <= 12; i++) await first.deliver('p1', seen(`in_${i}`, i), owner);
    const reads = readsOf();

    await fresh({ every: 10, version: 2 }).deliver('p1', seen('in_13', 13), owner);
    await fresh().deliver('p1', seen('in_14', 14), owner);

    expect(reads).toEqual([24, 26]);
    expect(await lastTally()).toEqual({ revision: 27, tally: { inputs: 14, sum: 105 } });
  });

  it('ignores an input delivered again after a restart, also when it is in the snapshot', async () => {
    const first = fresh({ every: 10, version: 1 });
    for (let i = 1; i <= 12; i++) await first.deliver('p1', seen(`in_${i}`, i), owner);

    await fresh({ every: 10, version: 1 }).deliver('p1', seen('in_3', 3), owner);
    await fresh({ every: 10, version: 1 }).deliver('p1', seen('in_12', 12), owner);

    expect(await lastTally()).toEqual({ revision: 23, tally: { inputs: 12, sum: 78 } });
  });

  it('keeps the ids of its latest inputs in its snapshot, and still skips the latest delivered again', async () => {
    const runtime = fresh({ every: 2 * (KEPT_INPUT_IDS + 5), version: 1 });
    for (let i = 1; i <= KEPT_INPUT_IDS + 5; i++) await runtime.deliver('p1', seen(`in_${i}`), owner);
    const snapshot = await cells.cell('eu').snapshots.load<{ input_ids: string[] }>(stream, 1);

    expect(snapshot?.state.input_ids).toHaveLength(KEPT_INPUT_IDS);
    expect(snapshot?.state.input_ids[0]).toBe('in_6');
    await runtime.deliver('p1', seen(`in_${KEPT_INPUT_IDS + 5}`), owner);
    expect((await lastTally()).tally).toEqual({ inputs: KEPT_INPUT_IDS + 5, sum: KEPT_INPUT_IDS + 5 });
  });
});
