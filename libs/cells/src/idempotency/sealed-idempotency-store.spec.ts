import { randomBytes } from 'node:crypto';
import Database from 'better-sqlite3';
import type { IdempotencyClaim, StoredResponse } from './idempotency-store.port';
import { SealedIdempotencyStore } from './sealed-idempotency-store';
import { SqliteIdempotencyStore } from './sqlite-idempotency-store';

const claim: IdempotencyClaim = {
  scope: 'operator POST /v1/operator/tenants',
  key: '4f1c1a0e-93a4-4c3b-9a53-0d1f8d7b2e11',
  fingerprint: 'f',
  now: new Date('2026-05-01T10:00:00.000Z'),
  expiresAt: new Date('2026-05-02T10:00:00.000Z'),
  lockedUntil: new Date('2026-05-01T10:01:00.000Z'),
};
const later = { ...claim, now: new Date('2026-05-01T11:00:00.000Z') };
const issued: StoredResponse = { status: 200, headers: { etag: 'W/"0"' }, body: { id: 'ten_1', api_keys: [{ secret: 'sk_live_shown_once' }] } };

describe('SealedIdempotencyStore', () => {
  let db: Database.Database;
  const masterKey = randomBytes(32);

  beforeEach(async () => {
    db = new Database(':memory:');
    const store = new SealedIdempotencyStore(new SqliteIdempotencyStore(db), masterKey);
    const outcome = await store.claim(claim);
    if (outcome.outcome !== 'new') throw new Error(outcome.outcome);
    await store.complete(claim.scope, claim.key, outcome.token, issued);
  });

  afterEach(() => db.close());

  const storedText = () => (db.prepare('SELECT response FROM idempotency_keys').get() as { response: string }).response;

  it('keeps the body encrypted at rest, and status and headers readable', () => {
    expect(storedText()).not.toContain('sk_live_shown_once');
    expect(storedText()).not.toContain('ten_1');
    expect(JSON.parse(storedText())).toMatchObject({ status: 200, headers: { etag: 'W/"0"' } });
  });

  it('replays the body in clear', async () => {
    const store = new SealedIdempotencyStore(new SqliteIdempotencyStore(db), masterKey);
    await expect(store.claim(later)).resolves.toEqual({ outcome: 'completed', response: issued, sameBody: true });
  });

  it('cannot open the body with another master key', async () => {
    const store = new SealedIdempotencyStore(new SqliteIdempotencyStore(db), randomBytes(32));
    await expect(store.claim(later)).rejects.toThrow();
  });

  it('cannot open a record moved to another key', async () => {
    db.prepare('UPDATE idempotency_keys SET key = ?').run('0b7e4f4e-5c55-4d3a-8f3e-6a1d2c9b8a70');
    const store = new SealedIdempotencyStore(new SqliteIdempotencyStore(db), masterKey);
    await expect(store.claim({ ...later, key: '0b7e4f4e-5c55-4d3a-8f3e-6a1d2c9b8a70' })).rejects.toThrow();
  });

  it('refuses a record stored in clear', async () => {
    db.prepare('UPDATE idempotency_keys SET response = ?').run(JSON.stringify(issued));
    const store = new SealedIdempotencyStore(new SqliteIdempotencyStore(db), masterKey);
    await expect(store.claim(later)).rejects.toThrow(/not sealed/);
  });
});
