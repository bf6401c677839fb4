import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SANDBOX_RECORD_FILE, SandboxPaymentProvider, SqliteSandboxRecord } from '@tally/payments';
import { TallyUnderTest } from './support/tally';
import { startTsChild } from './support/ts-child-process';
import { scaled } from './support/time-scale';

const CHILD_LIMIT_MS = scaled(60_000);

describe('a payment killed with SIGKILL between the provider’s charge and its record', () => {
  let dataDir: string;

  beforeAll(() => (dataDir = mkdtempSync(join(tmpdir(), 'tally-payment-crash-'))));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('is completed after the restart from the provider’s answer to the same key: one charge, the invoice paid', async () => {
    const lines: string[] = [];
    const victim = startTsChild('payment-crash-child.ts', [dataDir], (line) => {
      lines.push(line);
      if (line.startsWith('charged ')) victim.child.kill('SIGKILL');
    });
    const limit = setTimeout(() => victim.child.kill('SIGKILL'), CHILD_LIMIT_MS);
    const { signal } = await victim.closed;
    clearTimeout(limit);
    expect({ signal, stderr: victim.stderr() }).toEqual({ signal: 'SIGKILL', stderr: '' });
    const [key, invoice] = lines.find((line) => line.startsWith('ready '))!.split(' ').slice(1);
    const paymentId = lines.find((line) => line.startsWith('charged '))!.split(' ')[1];

    const tally = await TallyUnderTest.start({ dataDir });
    try {
      await tally.settle();
      const api = tally.as(key);
      expect((await api.get(`/v1/payments/${paymentId}`).expect(200)).body).toMatchObject({ status: 'succeeded', invoice_id: invoice, amount: '80.00' });
      expect((await api.get(`/v1/invoices/${invoice}`).expect(200)).body).toMatchObject({ status: 'paid', payments: [paymentId] });
    } finally {
      await tally.stop({ keepData: true });
    }
    const record = new SqliteSandboxRecord(join(dataDir, SANDBOX_RECORD_FILE));
    try {
      const charges = await new SandboxPaymentProvider(record).charges();
      expect(charges.map(({ idempotencyKey, amount, status }) => ({ idempotencyKey, amount, status }))).toEqual([{ idempotencyKey: `charge:${paymentId}`, amount: '80.00', status: 'succeeded' }]);
    } finally {
      record.onModuleDestroy();
    }
  }, scaled(90_000));
});
