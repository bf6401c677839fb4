import { DomainError, ManualClock, UlidGenerator, type Command, type Decider, type Event, type ProcessDecider, type ProcessInput, type ProcessOutput, type Upcaster } from '@tally/kernel';
import type { RecordedEvent } from '@tally/eventstore';
import type { Cell, CellRegistry, PiiFieldSpec, RequestContext } from '@tally/cells';
import { TempCells, testMetadata } from '@tally/cells/testing/temp-cells';
import type { AggregateDefinition } from './commands/aggregate-definition';
import { CommandRuntime } from './commands/command-runtime';
import { asEventOf } from './commands/history-event';
import type { ProcessManager } from './processes/process-manager';
import { Clocks } from './clocks/clocks';
import type { Projection } from './projections/projection';
import { Worker } from './worker';

/** Version 1 of NoteTaken, as old code stored it: the author under `author`, the text flat. */
type NoteTakenV1 = { note_id: string; author: string; text: string };
type NoteTaken = Event<'NoteTaken', { note_id: string; author_name: string; body: { text: string; words: number } }>;
type TakeNote = Command<'TakeNote', { note_id: string; author_name: string; text: string }>;

const upcasters: Upcaster[] = [
  {
    eventType: 'NoteTaken',
    fromVersion: 1,
    upcast: ({ note_id, author, text }: NoteTakenV1): NoteTaken['data'] => ({ note_id, author_name: author, body: { text, words: text.split(' ').length } }),
  },
];

/** The author is personal in both versions, under the path each version uses. */
const pii: PiiFieldSpec[] = [
  {
    eventType: 'NoteTaken',
    subject: (data) => data.note_id,
    fields: [
      { path: 'author', redacted: '[redacted]' },
      { path: 'author_name', redacted: '[redacted]' },
    ],
  },
];

type Notebook = { words: number; authors: string[] };

const notebook: AggregateDefinition<Notebook, TakeNote, NoteTaken> = {
  type: 'note',
  decider: {
    initialState: () => ({ words: 0, authors: [] }),
    evolve: (state, { data }) => ({ words: state.words + data.body.words, authors: [...state.authors, data.author_name] }),
    decide: ({ data: { note_id, author_name, text } }) => [{ type: 'NoteTaken', data: { note_id, author_name, body: { text, words: text.split(' ').length } } }],
  } satisfies Decider<Notebook, TakeNote, NoteTaken>,
  notFound: (id) => DomainError.notFound('note.not_found', id),
};

/** One document per note event, with what a version-2 reader expects. */
const notesProjection: Projection = {
  name: 'notes',
  streamPrefixes: ['note-'],
  collections: [{ name: 'notes', indexes: [] }],
  async handle(event, writer) {
    const { author_name, body } = asEventOf<NoteTaken>(event).data;
    writer.upsert('notes', { id: event.id, author_name, words: body.words });
  },
};

/** Counts the words of each note event in its own stream. */
class WordCount implements ProcessManager<null> {
  readonly name = 'word_count';
  readonly streamPrefixes = ['note-'];
  readonly decider: ProcessDecider<null> = {
    initialState: () => null,
    evolve: () => null,
    decide: (input: ProcessInput): ProcessOutput[] => (input.type === 'NoteTaken' ? [{ kind: 'event', type: 'WordsCounted', data: input.data }] : []),
  };
  route(event: RecordedEvent) {
    const { note_id, body } = asEventOf<NoteTaken>(event).data;
    return { processId: note_id, input: { id: event.id, type: event.type, data: { words: body.words } } };
  }
  async dispatch() {}
}

const context: RequestContext = { tenantId: 'ten_test', environment: 'sandbox', region: 'eu', actor: 'test', requestId: null, correlationId: null, causationId: null };

describe('events stored at an older schema version', () => {
  const clock = new ManualClock('2026-03-01T09:00:00.000Z');
  const ids = new UlidGenerator(clock);
  let temp: TempCells;
  let cells: CellRegistry;
  let cell: Cell;

  beforeEach(async () => {
    temp = new TempCells(clock, pii, upcasters);
    cells = temp.open();
    cell = cells.cell('eu');
    const v1: NoteTakenV1 = { note_id: 'n1', author: 'Ada', text: 'an old note here' };
    const metadata = testMetadata(clock.now().toISOString(), { schema_version: 1 });
    await cell.events.append('note-n1', [{ id: ids.ulid(), type: 'NoteTaken', data: await cell.pii.encode('NoteTaken', v1), metadata }], { expectedRevision: 'no_stream' });
  });

  afterEach(async () => {
    await cells.close();
    temp.remove();
  });

  it('reach the command runtime, projections and process managers in the current shape', async () => {
    const runtime = new CommandRuntime(cells, new Clocks(clock), ids);
    const outcome = await runtime.execute(notebook, 'n1', { type: 'TakeNote', data: { note_id: 'n1', author_name: 'Grace', text: 'new one' } }, context);
    expect(outcome.state).toEqual({ words: 6, authors: ['Ada', 'Grace'] });

    const worker = Worker.over(cells, { projections: [notesProjection], processes: [new WordCount() as ProcessManager], clock, ids, log: { error: () => undefined } });
    await worker.start({ pollTimers: false });
    await worker.settle();
    await worker.stop();

    const [oldNote, newNote] = await cell.events.readStream('note-n1');
    expect(await cell.readModels.all('notes')).toEqual([
      { id: oldNote.id, author_name: 'Ada', words: 4 },
      { id: newNote.id, author_name: 'Grace', words: 2 },
    ]);
    const counted = await cell.events.readStream('pm.word_count-n1');
    expect(counted.filter((e) => e.type === 'WordsCounted').map((e) => e.data)).toEqual([{ words: 4 }, { words: 2 }]);
  });

  it('are read, from every read, decoded and upcast, at the current version; new events are written at it', async () => {
    await new CommandRuntime(cells, new Clocks(clock), ids).execute(notebook, 'n1', { type: 'TakeNote', data: { note_id: 'n1', author_name: 'Grace', text: 'new one' } }, context);

    const stream = await cell.events.readStream('note-n1');
    const [newest] = await cell.events.readStream('note-n1', { direction: 'backwards', limit: 1 });
    const all = await cell.events.readAll({ limit: 10, filter: { streamPrefixes: ['note-'] } });
    expect(all).toEqual(stream);
    expect(newest).toEqual(stream[1]);
    expect(stream.map((e) => e.metadata.schema_version)).toEqual([2, 2]);
    expect(stream[0].data).toEqual({ note_id: 'n1', author_name: 'Ada', body: { text: 'an old note here', words: 4 } });
    // The new event was written at version 2 and is stored sealed, as every current event.
    expect(stream[1].data).toMatchObject({ note_id: 'n1', body: { text: 'new one', words: 2 }, $pii: expect.anything() });
    expect(await cell.pii.decode('NoteTaken', stream[1].data)).toMatchObject({ author_name: 'Grace' });

    const subscription = cell.events.subscribeToAll({ filter: { streamPrefixes: ['note-'] } });
    const delivered: RecordedEvent[] = [];
    for await (const event of subscription) if (delivered.push(event) === 2) break;
    expect(delivered).toEqual(stream);
  });

  it('show the redaction placeholders at their new place once the subject is erased', async () => {
    await cell.dataKeys.destroy('n1');
    cell.pii.forget('n1');
    const [old] = await cell.events.readStream('note-n1');
    expect(old.data).toEqual({ note_id: 'n1', author_name: '[redacted]', body: { text: 'an old note here', words: 4 } });
  });

  it('refuses an event stored at a version newer than this code knows', async () => {
    const metadata = testMetadata(clock.now().toISOString(), { schema_version: 3 });
    await cell.events.append('note-n2', [{ id: ids.ulid(), type: 'NoteTaken', data: {}, metadata }], { expectedRevision: 'no_stream' });
    await expect(cell.events.readStream('note-n2')).rejects.toThrow('NoteTaken is stored at schema version 3, which this code cannot read (it knows versions 1 to 2)');
  });
});
