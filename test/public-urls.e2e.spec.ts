import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pdfText } from '@tally/invoicing/documents/testing/pdf-text';
import { PUBLIC_URL, TallyUnderTest } from './support/tally';
import { eventually, WebhookReceiver } from './support/webhook-receiver';

const ROOT = join(__dirname, '..');

/** A customer paying by a card that needs 3DS, and an open invoice of theirs waiting to be paid by hand. */
async function invoiceNeedingAction(call: (method: string, path: string, body?: object) => Promise<{ status: number; body: Record<string, unknown> }>): Promise<string> {
  const customer = (await call('POST', '/v1/customers', { email: 'sca@example.com' })).body.id as string;
  await call('POST', `/v1/customers/${customer}/payment-methods`, { type: 'card', token: 'tok_3ds_required', set_as_default: true });
  const lines = [{ description: 'Annual licence', quantity: '1', unit_amount: '120.00' }];
  const invoice = (await call('POST', '/v1/invoices', { customer_id: customer, currency: 'EUR', auto_charge: false, lines })).body.id as string;
  await call('POST', `/v1/invoices/${invoice}/finalize`);
  return invoice;
}

describe('every URL Tally hands out is absolute, under its public URL', () => {
  describe('a Tally with TALLY_PUBLIC_URL set', () => {
    let tally: TallyUnderTest;
    let api: ReturnType<TallyUnderTest['as']>;
    let hooks: WebhookReceiver;

    beforeAll(async () => {
      let acme;
      ({ tally, acme, api } = await TallyUnderTest.withTenant());
      await tally.liftRateLimits(acme.tenantId);
      hooks = await WebhookReceiver.start();
    }, 60_000);

    afterAll(async () => {
      await tally?.stop();
      await hooks?.stop();
    });

    it('puts the hosted page’s absolute URL in the event log and in webhook bodies, as on the payment', async () => {
      await api.post('/v1/admin/webhook-endpoints', { url: hooks.url, events: ['payment.requires_action'] }).expect(200);
      const call = async (method: string, path: string, body?: object) => (method === 'GET' ? api.get(path) : api.post(path, body)).expect(200);
      const payment = (await call('POST', `/v1/invoices/${await invoiceNeedingAction(call)}/pay`, {})).body as { id: string; next_action: { url: string } };
      const hostedPage = new RegExp(`^${PUBLIC_URL}/payment-actions/${payment.id}\\?tenant=.+&signature=[A-Za-z0-9_-]{43}$`);
      expect(payment.next_action.url).toMatch(hostedPage);

      await tally.settle();
      const logged = (await api.get(`/v1/events?aggregate_id=${payment.id}&type=payment.requires_action`).expect(200)).body.data as { data: { next_action: { url: string } } }[];
      expect(logged.map((event) => event.data.next_action.url)).toEqual([payment.next_action.url]);
      await eventually(() => hooks.acknowledged.length === 1, 10_000, 'the payment.requires_action delivery');
      expect((hooks.acknowledged[0].event.data as { next_action: { url: string } }).next_action.url).toBe(payment.next_action.url);
      await tally.http().get(payment.next_action.url).expect(200).expect('Content-Type', /text\/html/);
    });
  });

  describe('npm start', () => {
    let dataDir: string;

    beforeAll(() => {
      dataDir = mkdtempSync(join(tmpdir(), 'tally-start-'));
    });

    afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

    /** `apps/api/src/main.ts` in a child node, its TypeScript compiled on the fly; resolves with what it printed once `until` holds or it exits. */
    function start(env: NodeJS.ProcessEnv, until: (stdout: string) => boolean) {
      const child = spawn(process.execPath, ['-r', './test/support/ts-child.js', 'apps/api/src/main.ts'], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, LOG_LEVEL: 'warn', ...env } });
      let stdout = '';
      let stderr = '';
      const closed = new Promise<number | null>((resolve) => child.on('close', resolve));
      const started = new Promise<void>((resolve) => {
        child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
          stdout += chunk;
          if (until(stdout)) resolve();
        });
        void closed.then(() => resolve());
      });
      child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
      return { child, closed, started, output: () => ({ stdout, stderr }) };
    }

    it('with PORT=0 hands out URLs of the address it really listens on: the hosted page, and the PDF the redirect leads to', async () => {
      // No TALLY_PUBLIC_URL, whatever this process has: the default is under test.
      const tally = start({ PORT: '0', TALLY_DATA_DIR: dataDir, TALLY_PUBLIC_URL: undefined }, (stdout) => /API reference: /.test(stdout));
      try {
        await tally.started;
        const { stdout } = tally.output();
        const address = stdout.match(/Tally API listening on (http:\/\/localhost:([0-9]+)) \(embedded profile/)?.[1];
        const key = stdout.match(/^ {2}(sk_test_\S+)$/m)?.[1];
        expect([address, key]).toEqual([expect.stringMatching(/^http:\/\/localhost:(?!3000\b)[0-9]+$/), expect.stringMatching(/^sk_test_/)]);
        const auth = { Authorization: `Bearer ${key}` };
        const call = async (method: string, path: string, body?: object) => {
          const response = await fetch(`${address}${path}`, { method, headers: { ...auth, 'Content-Type': 'application/json' }, body: body && JSON.stringify(body) });
          const answer = { status: response.status, body: (await response.json()) as Record<string, unknown> };
          expect([method, path, answer]).toEqual([method, path, expect.objectContaining({ status: 200 })]);
          return answer;
        };

        // The demo key works once the worker thread projected it (right after a start, a moment later).
        await eventually(async () => (await fetch(`${address}/v1/customers`, { headers: auth })).status === 200, 150_000, 'the demo key to work');
        const invoice = await invoiceNeedingAction(call);
        const payment = (await call('POST', `/v1/invoices/${invoice}/pay`, {})).body as { next_action: { url: string } };
        expect(payment.next_action.url.startsWith(`${address}/payment-actions/pay_`)).toBe(true);
        const page = await fetch(payment.next_action.url);
        expect([page.status, page.headers.get('content-type')]).toEqual([200, 'text/html; charset=utf-8']);

        // The PDF's link is signed for an invoice of the read model, which the worker thread builds a moment after the write.
        await eventually(async () => (await fetch(`${address}/v1/invoices/${invoice}`, { headers: auth })).status === 200, 30_000, 'the invoice to be projected');
        const pdf = await fetch(`${address}/v1/invoices/${invoice}/pdf`, { headers: auth });
        expect(pdf.redirected).toBe(true);
        expect(pdf.url.startsWith(`${address}/invoice-pdfs/${invoice}?`)).toBe(true);
        expect([pdf.status, pdf.headers.get('content-type')]).toEqual([200, 'application/pdf']);
        expect(await pdfText(Buffer.from(await pdf.arrayBuffer()))).toContain('Annual licence');
      } finally {
        tally.child.kill('SIGTERM');
        await tally.closed;
      }
    }, 300_000);

    it('refuses to start on a public URL that is not an absolute http(s) URL, saying so in one line', async () => {
      const tally = start({ PORT: '0', TALLY_DATA_DIR: dataDir, TALLY_PUBLIC_URL: 'billing.example.com/tally?x=1' }, () => false);
      expect(await tally.closed).toBe(1);
      expect(tally.output()).toEqual({
        stdout: '',
        stderr: 'Tally cannot start: TALLY_PUBLIC_URL is the absolute http(s) address customers reach Tally at, without credentials, query or fragment (such as https://billing.example.com), not "billing.example.com/tally?x=1"\n',
      });
    }, 120_000);
  });
});
