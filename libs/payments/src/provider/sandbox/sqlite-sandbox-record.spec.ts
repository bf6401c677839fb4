import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SandboxPaymentProvider } from './sandbox-provider';
import { SqliteSandboxRecord } from './sqlite-sandbox-record';

const NOW = '2026-05-01T10:00:00.000Z';

describe('the sandbox provider on its SQLite record', () => {
  let dir: string;
  const records: SqliteSandboxRecord[] = [];
  const open = () => {
    const record = new SqliteSandboxRecord(join(dir, 'sandbox-provider.sqlite'));
    records.push(record);
    return record;
  };

  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'tally-sandbox-record-'))));
  afterEach(() => {
    for (const record of records.splice(0)) record.onModuleDestroy();
    rmSync(dir, { recursive: true, force: true });
  });

  it('answers a key the same from two connections (the API and the worker thread) and charges once', async () => {
    const api = new SandboxPaymentProvider(open());
    const worker = new SandboxPaymentProvider(open());
    const attached = await api.attach({ type: 'card', token: 'tok_visa', now: NOW, idempotencyKey: 'attach:pm_1' });
    if (!attached.ok) throw new Error('tok_visa attaches');
    const request = { providerRef: attached.providerRef, amount: '12.50', currency: 'EUR', now: NOW, idempotencyKey: 'charge:pay_1' };
    // In turn: each thread has one connection, and a second connection in the same thread would wait on the first's transaction.
    const first = await api.charge(request);
    const second = await worker.charge(request);
    expect(second).toEqual(first);
    expect(first.status).toBe('succeeded');
    expect((await worker.charges()).map((charge) => charge.idempotencyKey)).toEqual(['charge:pay_1']);
  });

  it('keeps what it answered across a reopening, and lists charges in the order they were made', async () => {
    const before = new SandboxPaymentProvider(open());
    const attached = await before.attach({ type: 'card', token: 'tok_visa', now: NOW, idempotencyKey: 'attach:pm_1' });
    if (!attached.ok) throw new Error('tok_visa attaches');
    for (const n of [3, 1, 2]) await before.charge({ providerRef: attached.providerRef, amount: `${n}.00`, currency: 'EUR', now: NOW, idempotencyKey: `charge:pay_${n}` });
    records.pop()!.onModuleDestroy();
    const after = new SandboxPaymentProvider(open());
    expect((await after.charges()).map((charge) => charge.amount)).toEqual(['3.00', '1.00', '2.00']);
  });
});
