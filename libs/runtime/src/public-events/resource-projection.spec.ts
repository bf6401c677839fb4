import Database from 'better-sqlite3';
import type { RecordedEvent } from '@tally/eventstore';
import { SqliteReadStore } from '@tally/readstore';
import { testMetadata } from '@tally/cells/testing/temp-cells';
import { UnitOfWork } from '../projections/unit-of-work';
import { PUBLIC_EVENTS, type PublicEventDoc } from './public-event';
import { resourceProjection, unscoped } from './resource-projection';
import type { ResourceView } from './resource-view';

interface Note {
  [field: string]: unknown;
  id: string;
  text: string;
}

/** Notes: created and edited in public, touched internally, deleted in public (as they were). */
const notes: ResourceView<Note> = {
  aggregateType: 'note',
  collection: 'notes',
  apply(note, event) {
    const data = event.data as { note_id: string; text?: string };
    if (event.type === 'NoteCreated') return { id: data.note_id, text: data.text ?? '' };
    if (!note || event.type === 'NoteDeleted') return undefined;
    return event.type === 'NoteEdited' ? { ...note, text: data.text ?? '' } : note;
  },
  publicTypes: ['note.created', 'note.updated', 'note.deleted'],
  publicType: (event) => ({ NoteCreated: 'note.created', NoteEdited: 'note.updated', NoteDeleted: 'note.deleted' })[event.type],
};
const projection = resourceProjection(notes, []);

describe('a resource projection’s public events', () => {
  let db: Database.Database;
  let store: SqliteReadStore;
  let position = 0n;

  beforeEach(async () => {
    db = new Database(':memory:');
    store = new SqliteReadStore(db);
    for (const collection of projection.collections) await store.ensureCollection(collection.name, collection.indexes);
  });

  afterEach(() => db.close());

  async function project(noteId: string, types: readonly string[], fromRevision = 0): Promise<PublicEventDoc[]> {
    const unit = new UnitOfWork(store);
    for (const [index, type] of types.entries()) {
      position += 1n;
      const metadata = testMetadata('2026-05-01T10:00:00.000Z', { tenant_id: 'ten_1' });
      const event: RecordedEvent = { id: `e${position}`, stream: `note-${noteId}`, revision: fromRevision + index, position, type, data: { note_id: noteId, text: type }, metadata };
      await projection.handle(event, unit.writerFor(event));
      await unit.commit(projection.name);
    }
    const { items } = await store.find<PublicEventDoc>(PUBLIC_EVENTS, { where: [{ field: 'aggregate_id', op: 'eq', value: noteId }], sort: { field: 'sequence', direction: 'asc' }, limit: 100 });
    return items;
  }

  it('numbers the published events of an aggregate 1, 2, 3 …: an internal event leaves no gap', async () => {
    const published = await project('note_1', ['NoteCreated', 'NoteTouched', 'NoteTouched', 'NoteEdited', 'NoteTouched', 'NoteEdited', 'NoteDeleted']);
    expect(published.map((event) => [event.type, event.sequence])).toEqual([
      ['note.created', 1],
      ['note.updated', 2],
      ['note.updated', 3],
      ['note.deleted', 4],
    ]);
  });

  it('keeps the count beside the resource, never in it', async () => {
    await project('note_2', ['NoteCreated', 'NoteTouched', 'NoteEdited']);
    const stored = await store.get<Note & { published_count: number; stream_revision: number }>(notes.collection, 'note_2');
    expect(stored).toMatchObject({ published_count: 2, stream_revision: 2 });
    expect(unscoped(stored!)).toEqual({ id: 'note_2', text: 'NoteEdited' });
  });

  it('counts on from the revision of a document written before the count was kept, so the sequence keeps increasing', async () => {
    await store.commit([{ op: 'upsert', collection: notes.collection, doc: { id: 'note_3', text: 'old', tenant_id: 'ten_1', environment: 'sandbox', stream_revision: 4 }, position: 1n }]);
    const published = await project('note_3', ['NoteTouched', 'NoteEdited', 'NoteEdited'], 5);
    expect(published.map((event) => event.sequence)).toEqual([5, 6]);
  });
});
