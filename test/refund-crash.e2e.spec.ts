import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SANDBOX_RECORD_FILE, SandboxPaymentProvider, SqliteSandboxRecord } from '@tally/payments';
import { TallyUnderTest } from './support/tally';
import { startTsChild } from './support/ts-child-process';
import { scaled } from './support/time-scale';

const CHILD_LIMIT_MS = scaled(60_000);

describe('a refund killed with SIGKILL between the provider’s refund and its record', () => {
  let dataDir: string;

  beforeAll(() => (dataDir = mkdtempSync(join(tmpdir(), 'tally-refund-crash-'))));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('is completed after the restart from the provider’s answer to the same key: one refund at the provider, one recorded', async () => {
    const lines: string[] = [];
    const victim = startTsChild('refund-crash-child.ts', [dataDir], (line) => {
      lines.push(line);
      if (line.startsWith('refunded ')) victim.child.kill('SIGKILL');
    });
    const limit = setTimeout(() => victim.child.kill('SIGKILL'), CHILD_LIMIT_MS);
    const { signal } = await victim.closed;
    clearTimeout(limit);
    expect({ signal, stderr: victim.stderr() }).toEqual({ signal: 'SIGKILL', stderr: '' });
    const [key, invoice, payment] = lines.find((line) => line.startsWith('ready '))!.split(' ').slice(1);
    const refundId = lines.find((line) => line.startsWith('refunded '))!.split(' ')[1];

    const tally = await TallyUnderTest.start({ dataDir });
    try {
      await tally.settle();
      const api = tally.as(key);
      const refund = (await api.get(`/v1/refunds/${refundId}`).expect(200)).body;
      expect(refund).toMatchObject({ status: 'succeeded', payment_id: payment, invoice_id: invoice, amount: '30.00', attempts: 1, provider_refund_id: expect.stringMatching(/^sbx_re_/) });
      expect((await api.get(`/v1/refunds?payment_id=${payment}`).expect(200)).body.data.map((listed: { id: string }) => listed.id)).toEqual([refundId]);
      expect((await api.get(`/v1/payments/${payment}`).expect(200)).body).toMatchObject({ status: 'partially_refunded', refunds: [refundId], amount_refunded: '30.00' });
      const { credit_notes } = (await api.get(`/v1/invoices/${invoice}`).expect(200)).body;
      expect(credit_notes).toMatchObject([{ id: refund.credit_note_id, amount: '30.00', refund_id: refundId, outcome: { kind: 'refund', refund_status: 'succeeded' } }]);
      // In the refund's own order (the restarted process's clock starts over, so creation times do not tell it).
      const events = (await api.get(`/v1/events?aggregate_id=${refundId}`).expect(200)).body.data as { type: string; sequence: number }[];
      expect(events.sort((a, b) => a.sequence - b.sequence).map((event) => event.type)).toEqual(['refund.created', 'refund.succeeded']);
    } finally {
      await tally.stop({ keepData: true });
    }
    const record = new SqliteSandboxRecord(join(dataDir, SANDBOX_RECORD_FILE));
    try {
      const refunds = await new SandboxPaymentProvider(record).refunds();
      expect(refunds.map(({ idempotencyKey, amount, reference }) => ({ idempotencyKey, amount, reference }))).toEqual([{ idempotencyKey: `refund:${refundId}:1`, amount: '30.00', reference: refundId }]);
    } finally {
      record.onModuleDestroy();
    }
  }, scaled(90_000));
});
