import { randomBytes } from 'node:crypto';
import Database from 'better-sqlite3';
import { ManualClock } from '@tally/kernel/clock';
import { DataKeyDestroyedError } from './data-key-destroyed.error';
import type { DataKeyStore } from './data-key-store.port';
import { PiiCodec, type PiiFieldSpec } from './pii-codec';
import { SqliteDataKeyStore } from './sqlite-data-key-store';

const SPECS: PiiFieldSpec[] = [
  {
    eventType: 'customer.created',
    subject: (data) => data.customer_id,
    fields: [
      { path: 'email', redacted: 'redacted@invalid' },
      { path: 'name', redacted: '[erased]' },
      { path: 'billing_address', redacted: null },
      { path: 'tax_id.value', redacted: null },
      { path: 'metadata', redacted: {} },
    ],
  },
];

const CREATED = {
  customer_id: 'cus_1',
  email: 'ada@example.com',
  name: 'Ada Lovelace',
  billing_address: { line1: '12 St James Sq', city: 'London', country: 'GB' },
  tax_id: { type: 'eu_vat', value: 'DE136695976' },
  metadata: { crm_id: 42, tags: ['vip'] },
  balance: '12.50',
  currency: 'EUR',
};

type Encoded = Record<string, any>;

/** Counts store reads, to see what the cache saves. */
class CountingStore implements DataKeyStore {
  reads = 0;
  constructor(private readonly inner: DataKeyStore) {}
  getOrCreate(subjectId: string) {
    this.reads++;
    return this.inner.getOrCreate(subjectId);
  }
  get(subjectId: string) {
    this.reads++;
    return this.inner.get(subjectId);
  }
  destroy(subjectId: string) {
    return this.inner.destroy(subjectId);
  }
}

describe('PiiCodec', () => {
  let db: Database.Database;
  let store: CountingStore;
  let codec: PiiCodec;

  beforeEach(() => {
    db = new Database(':memory:');
    store = new CountingStore(new SqliteDataKeyStore(db, randomBytes(32), new ManualClock()));
    codec = new PiiCodec(store, SPECS);
  });

  afterEach(() => db.close());

  it('round-trips an event, objects and nested paths included', async () => {
    const encoded = await codec.encode('customer.created', CREATED);
    expect(await codec.decode('customer.created', encoded)).toEqual(CREATED);
  });

  it('encrypts every personal field and nothing else, leaving the input untouched', async () => {
    const input = structuredClone(CREATED);
    const encoded = (await codec.encode('customer.created', input)) as Encoded;
    const envelope = { $pii: 'v1', iv: expect.any(String), tag: expect.any(String), ct: expect.any(String) };
    expect(encoded).toEqual({
      customer_id: 'cus_1',
      email: envelope,
      name: envelope,
      billing_address: envelope,
      tax_id: { type: 'eu_vat', value: envelope },
      metadata: envelope,
      balance: '12.50',
      currency: 'EUR',
    });
    const stored = JSON.stringify(encoded);
    for (const secret of ['ada@example.com', 'Ada Lovelace', '12 St James Sq', 'DE136695976', 'crm_id']) {
      expect(stored).not.toContain(secret);
    }
    expect(input).toEqual(CREATED);
  });

  it('uses a fresh IV per encryption, so equal values give different ciphertexts', async () => {
    const first = (await codec.encode('customer.created', CREATED)) as Encoded;
    const second = (await codec.encode('customer.created', CREATED)) as Encoded;
    expect(first.email.iv).not.toEqual(second.email.iv);
    expect(first.email.ct).not.toEqual(second.email.ct);
  });

  it('passes events without a spec through unchanged', async () => {
    const paid = { invoice_id: 'in_1', email: 'ada@example.com' };
    expect(await codec.encode('invoice.paid', paid)).toBe(paid);
    expect(await codec.decode('invoice.paid', paid)).toBe(paid);
  });

  it('keeps absent fields absent and null fields null, unencrypted', async () => {
    const sparse = { customer_id: 'cus_1', email: 'ada@example.com', name: null, tax_id: null };
    const encoded = (await codec.encode('customer.created', sparse)) as Encoded;
    expect(Object.keys(encoded).sort()).toEqual(['customer_id', 'email', 'name', 'tax_id']);
    expect(encoded.name).toBeNull();
    expect(encoded.tax_id).toBeNull();
    expect(await codec.decode('customer.created', encoded)).toEqual(sparse);
  });

  it('creates no key for an event without personal values', async () => {
    const bare = { customer_id: 'cus_1' };
    expect(await codec.encode('customer.created', bare)).toBe(bare);
    expect(store.reads).toBe(0);
  });

  it('shows the placeholders once the key is destroyed, while ids and amounts survive', async () => {
    const encoded = await codec.encode('customer.created', CREATED);
    await store.destroy('cus_1');
    codec.forget('cus_1');
    expect(await codec.decode('customer.created', encoded)).toEqual({
      customer_id: 'cus_1',
      email: 'redacted@invalid',
      name: '[erased]',
      billing_address: null,
      tax_id: { type: 'eu_vat', value: null },
      metadata: {},
      balance: '12.50',
      currency: 'EUR',
    });
  });

  it('refuses to encrypt new personal data for an erased subject', async () => {
    await store.destroy('cus_1');
    await expect(codec.encode('customer.created', CREATED)).rejects.toBeInstanceOf(DataKeyDestroyedError);
  });

  it('shows the placeholders when the key is missing altogether', async () => {
    const encoded = await codec.encode('customer.created', CREATED);
    const otherDb = new Database(':memory:');
    const elsewhere = new PiiCodec(new SqliteDataKeyStore(otherDb, randomBytes(32), new ManualClock()), SPECS);
    expect(await elsewhere.decode('customer.created', encoded)).toMatchObject({ email: 'redacted@invalid', customer_id: 'cus_1' });
    otherDb.close();
  });

  it('caches keys until told to forget them', async () => {
    const encoded = await codec.encode('customer.created', CREATED);
    await codec.decode('customer.created', encoded);
    await codec.decode('customer.created', encoded);
    expect(store.reads).toBe(1);
    await store.destroy('cus_1');
    expect(await codec.decode('customer.created', encoded)).toMatchObject({ email: 'ada@example.com' });
    codec.forget('cus_1');
    expect(await codec.decode('customer.created', encoded)).toMatchObject({ email: 'redacted@invalid' });
  });

  it('evicts the least recently used key beyond its cache size', async () => {
    const small = new PiiCodec(store, SPECS, 2);
    const events: unknown[] = [];
    for (const id of ['cus_1', 'cus_2', 'cus_3']) {
      events.push(await small.encode('customer.created', { customer_id: id, email: `${id}@example.com` }));
    }
    const readsAfterEncoding = store.reads;
    await small.decode('customer.created', events[2]);
    await small.decode('customer.created', events[1]);
    expect(store.reads).toBe(readsAfterEncoding);
    await small.decode('customer.created', events[0]);
    expect(store.reads).toBe(readsAfterEncoding + 1);
  });

  it('fails closed when a ciphertext, tag or IV was tampered with', async () => {
    const encoded = (await codec.encode('customer.created', CREATED)) as Encoded;
    const flip = (b64: string) => {
      const bytes = Buffer.from(b64, 'base64');
      bytes[0] ^= 1;
      return bytes.toString('base64');
    };
    for (const part of ['ct', 'tag', 'iv'] as const) {
      const tampered = { ...encoded, email: { ...encoded.email, [part]: flip(encoded.email[part]) } };
      await expect(codec.decode('customer.created', tampered)).rejects.toThrow(/cannot be decrypted/);
    }
  });

  it('rejects a ciphertext moved to another subject', async () => {
    const ada = (await codec.encode('customer.created', CREATED)) as Encoded;
    const bob = (await codec.encode('customer.created', { ...CREATED, customer_id: 'cus_2', email: 'bob@example.com' })) as Encoded;
    await expect(codec.decode('customer.created', { ...bob, email: ada.email })).rejects.toThrow(/cannot be decrypted/);
  });

  it('rejects a ciphertext moved to another field of the same subject', async () => {
    const encoded = (await codec.encode('customer.created', CREATED)) as Encoded;
    await expect(codec.decode('customer.created', { ...encoded, name: encoded.email })).rejects.toThrow(/cannot be decrypted/);
  });

  it('needs a subject id to encrypt', async () => {
    await expect(codec.encode('customer.created', { email: 'ada@example.com' })).rejects.toThrow(/names no subject/);
  });

  it('refuses two specs for one event type', () => {
    expect(() => new PiiCodec(store, [...SPECS, ...SPECS])).toThrow(/two personal-data specs/);
  });
});
