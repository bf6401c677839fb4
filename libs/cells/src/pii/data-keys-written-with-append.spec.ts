import { randomBytes } from 'node:crypto';
import Database from 'better-sqlite3';
import { ManualClock } from '@tally/kernel/clock';
import { DuplicateEventIdError, SqliteEventStore, type NewEvent } from '@tally/eventstore';
import { DataKeysWrittenWithAppend } from './data-keys-written-with-append';
import { PiiCodec, type PiiFieldSpec } from './pii-codec';
import { SqliteDataKeyStore } from './sqlite-data-key-store';

const SPECS: PiiFieldSpec[] = [{ eventType: 'CustomerCreated', subject: (data) => data.customer_id, fields: [{ path: 'email', redacted: null }] }];
const METADATA = { tenant_id: 'ten_1', environment: 'sandbox', actor: 'test', request_id: null, correlation_id: null, causation_id: null, occurred_at: '2026-01-01T00:00:00.000Z', schema_version: 1 } as const;

describe('DataKeysWrittenWithAppend', () => {
  const masterKey = randomBytes(32);
  let db: Database.Database;
  let stored: SqliteDataKeyStore;
  let keys: DataKeysWrittenWithAppend;
  let codec: PiiCodec;
  let events: SqliteEventStore;

  const created = async (customerId: string, eventId = `evt_${customerId}`): Promise<NewEvent> => ({
    id: eventId,
    type: 'CustomerCreated',
    data: await codec.encode('CustomerCreated', { customer_id: customerId, email: `${customerId}@example.com` }),
    metadata: METADATA,
  });
  const keyRows = () => db.prepare('SELECT count(*) FROM pii_data_keys').pluck().get();

  beforeEach(() => {
    db = new Database(':memory:');
    stored = new SqliteDataKeyStore(db, masterKey, new ManualClock());
    keys = new DataKeysWrittenWithAppend(stored);
    codec = new PiiCodec(keys, SPECS);
    events = new SqliteEventStore(db, [keys.appendParticipant(codec)]);
  });

  afterEach(() => db.close());

  it('stores a new subject’s key only with the append its personal data is sealed in', async () => {
    const event = await created('cus_1');
    expect(keyRows()).toBe(0);
    await events.append('customer-cus_1', [event], { expectedRevision: 'no_stream' });
    expect(keyRows()).toBe(1);
    const [read] = await events.readStream('customer-cus_1');
    const fresh = new PiiCodec(new SqliteDataKeyStore(db, masterKey, new ManualClock()), SPECS);
    await expect(fresh.decode(read.type, read.data)).resolves.toEqual({ customer_id: 'cus_1', email: 'cus_1@example.com' });
  });

  it('stores neither the key nor the events when the append fails', async () => {
    await events.append('other', [{ id: 'evt_taken', type: 'Other', data: {}, metadata: METADATA }], { expectedRevision: 'no_stream' });
    const event = await created('cus_1', 'evt_taken');
    await expect(events.append('customer-cus_1', [event], { expectedRevision: 'no_stream' })).rejects.toBeInstanceOf(DuplicateEventIdError);
    expect(keyRows()).toBe(0);

    // The key is still pending in the codec's cache, and the next successful append stores it.
    await events.append('customer-cus_1', [await created('cus_1', 'evt_2')], { expectedRevision: 'no_stream' });
    await expect(stored.get('cus_1')).resolves.toEqual(await keys.getOrCreate('cus_1'));
  });

  it('refuses the append when another writer stored a different key for the subject meanwhile', async () => {
    const event = await created('cus_1');
    const theirs = await stored.getOrCreate('cus_1');
    await expect(events.append('customer-cus_1', [event], { expectedRevision: 'no_stream' })).rejects.toThrow(/another data key/);
    await expect(events.readStream('customer-cus_1')).resolves.toEqual([]);
    // The codec forgot the lost key: the retry seals with the stored one.
    await events.append('customer-cus_1', [await created('cus_1')], { expectedRevision: 'no_stream' });
    await expect(keys.getOrCreate('cus_1')).resolves.toEqual(theirs);
  });

  it('does not write a key for appends without personal data, nor twice for one subject', async () => {
    await events.append('customer-cus_1', [await created('cus_1', 'evt_1'), await created('cus_1', 'evt_2')], { expectedRevision: 'no_stream' });
    await events.append('other', [{ id: 'evt_3', type: 'Other', data: {}, metadata: METADATA }], { expectedRevision: 'no_stream' });
    expect(keyRows()).toBe(1);
  });

  it('never creates a destroyed key again, pending or stored', async () => {
    await created('cus_1');
    await keys.destroy('cus_1');
    await expect(keys.getOrCreate('cus_1')).rejects.toMatchObject({ subjectId: 'cus_1' });
  });
});
