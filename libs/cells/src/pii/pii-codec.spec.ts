import { randomBytes } from 'node:crypto';
import Database from 'better-sqlite3';
import { ManualClock } from '@tally/kernel/clock';
import { DataKeyDestroyedError } from './data-key-destroyed.error';
import type { DataKeyStore } from './data-key-store.port';
import { PiiCodec, type PiiFieldSpec } from './pii-codec';
import { SqliteDataKeyStore } from './sqlite-data-key-store';

const FIELDS = [
  { path: 'email', redacted: 'redacted@invalid' },
  { path: 'name', redacted: '[erased]' },
  { path: 'billing_address', redacted: null },
  { path: 'tax_id.value', redacted: null },
  { path: 'metadata', redacted: {} },
];

const SPECS: PiiFieldSpec[] = [
  { eventType: 'customer.created', subject: (data) => data.customer_id, fields: FIELDS },
  { eventType: 'customer.updated', subject: (data) => data.customer_id, fields: FIELDS },
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

  it('moves every personal field, and nothing else, into one sealed envelope, leaving the input untouched', async () => {
    const input = structuredClone(CREATED);
    const encoded = (await codec.encode('customer.created', input)) as Encoded;
    expect(encoded).toEqual({
      customer_id: 'cus_1',
      tax_id: { type: 'eu_vat' },
      balance: '12.50',
      currency: 'EUR',
      $pii: {
        v: 2,
        fields: ['email', 'name', 'billing_address', 'tax_id.value', 'metadata'],
        iv: expect.any(String),
        tag: expect.any(String),
        ct: expect.any(String),
      },
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
    expect(first.$pii.iv).not.toEqual(second.$pii.iv);
    expect(first.$pii.ct).not.toEqual(second.$pii.ct);
  });

  it('passes events without a spec through unchanged', async () => {
    const paid = { invoice_id: 'in_1', email: 'ada@example.com' };
    expect(await codec.encode('invoice.paid', paid)).toBe(paid);
    expect(await codec.decode('invoice.paid', paid)).toBe(paid);
  });

  it('keeps absent fields absent and null fields null, unencrypted', async () => {
    const sparse = { customer_id: 'cus_1', email: 'ada@example.com', name: null, tax_id: null };
    const encoded = (await codec.encode('customer.created', sparse)) as Encoded;
    expect(Object.keys(encoded).sort()).toEqual(['$pii', 'customer_id', 'name', 'tax_id']);
    expect(encoded.$pii.fields).toEqual(['email']);
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

  it('once the key is destroyed, gives placeholders only for the fields the event held', async () => {
    const renamed = { customer_id: 'cus_1', name: 'Ada King', email: null };
    const encoded = await codec.encode('customer.updated', renamed);
    await store.destroy('cus_1');
    codec.forget('cus_1');
    expect(await codec.decode('customer.updated', encoded)).toEqual({ customer_id: 'cus_1', name: '[erased]', email: null });
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

  it('fails closed when the ciphertext, tag or IV was tampered with', async () => {
    const encoded = (await codec.encode('customer.created', CREATED)) as Encoded;
    const flip = (b64: string, at: number) => {
      const bytes = Buffer.from(b64, 'base64');
      bytes[at] ^= 1;
      return bytes.toString('base64');
    };
    for (const part of ['ct', 'tag', 'iv'] as const) {
      for (const at of [0, Buffer.from(encoded.$pii[part], 'base64').length - 1]) {
        const tampered = { ...encoded, $pii: { ...encoded.$pii, [part]: flip(encoded.$pii[part], at) } };
        await expect(codec.decode('customer.created', tampered)).rejects.toThrow(/cannot be decrypted/);
      }
    }
  });

  it('fails closed when the list of fields was altered', async () => {
    const encoded = (await codec.encode('customer.created', CREATED)) as Encoded;
    const [email, name, ...others] = encoded.$pii.fields;
    for (const fields of [[name, email, ...others], [email, name, ...others.slice(1)]]) {
      const tampered = { ...encoded, $pii: { ...encoded.$pii, fields } };
      await expect(codec.decode('customer.created', tampered)).rejects.toThrow(/cannot be decrypted/);
    }
  });

  it('fails closed on a malformed envelope', async () => {
    const encoded = (await codec.encode('customer.created', CREATED)) as Encoded;
    const { tag: _tag, ...tagless } = encoded.$pii;
    for (const $pii of [tagless, { ...encoded.$pii, v: 1 }, { ...encoded.$pii, fields: 'email' }, 'sealed']) {
      await expect(codec.decode('customer.created', { ...encoded, $pii })).rejects.toThrow(/cannot be decrypted/);
    }
  });

  it('refuses an envelope that names a field the spec does not list', async () => {
    const encoded = (await codec.encode('customer.created', CREATED)) as Encoded;
    const tampered = { ...encoded, $pii: { ...encoded.$pii, fields: ['password', ...encoded.$pii.fields.slice(1)] } };
    await expect(codec.decode('customer.created', tampered)).rejects.toThrow(/names password/);
  });

  it('rejects an envelope moved to another subject', async () => {
    const ada = (await codec.encode('customer.created', CREATED)) as Encoded;
    const bob = (await codec.encode('customer.created', { ...CREATED, customer_id: 'cus_2', email: 'bob@example.com' })) as Encoded;
    await expect(codec.decode('customer.created', { ...bob, $pii: ada.$pii })).rejects.toThrow(/cannot be decrypted/);
  });

  it('binds the envelope to its subject even where two subjects share a key', async () => {
    const key = randomBytes(32);
    const oneKey: DataKeyStore = { getOrCreate: async () => key, get: async () => key, destroy: async () => {} };
    const shared = new PiiCodec(oneKey, SPECS);
    const ada = (await shared.encode('customer.created', CREATED)) as Encoded;
    await expect(shared.decode('customer.created', { ...ada, customer_id: 'cus_2' })).rejects.toThrow(/cannot be decrypted/);
  });

  it('rejects an envelope moved to another event type of the same subject', async () => {
    const created = (await codec.encode('customer.created', CREATED)) as Encoded;
    await expect(codec.decode('customer.updated', created)).rejects.toThrow(/cannot be decrypted/);
  });

  it('refuses to seal personal data beside an envelope the event already holds', async () => {
    const encoded = (await codec.encode('customer.created', CREATED)) as Encoded;
    await expect(codec.encode('customer.created', { ...encoded, email: 'eve@example.com' })).rejects.toThrow(/already holds \$pii/);
  });

  it('needs a subject id to encrypt', async () => {
    await expect(codec.encode('customer.created', { email: 'ada@example.com' })).rejects.toThrow(/names no subject/);
  });

  it('refuses a personal field inside another', () => {
    const overlapping = { ...SPECS[0], fields: [{ path: 'billing_address', redacted: null }, { path: 'billing_address.city', redacted: null }] };
    expect(() => new PiiCodec(store, [overlapping])).toThrow(/billing_address.city lies inside another/);
  });

  it('refuses two specs for one event type', () => {
    expect(() => new PiiCodec(store, [...SPECS, ...SPECS])).toThrow(/two personal-data specs/);
  });
});
