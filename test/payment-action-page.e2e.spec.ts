import { existsSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser } from 'playwright-core';
import { freePort } from '../apps/api/src/free-port';
import { TallyUnderTest, type TestTenant } from './support/tally';

const CHROMIUM = '/usr/bin/chromium';
const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'];

const playwrightInstalled = (() => {
  try {
    require.resolve('playwright-core');
    return true;
  } catch {
    return false;
  }
})();
const inBrowser = existsSync(CHROMIUM) && playwrightInstalled;
if (!inBrowser) {
  console.warn(`The hosted 3DS page's browser test is skipped: it needs Debian's Chromium at ${CHROMIUM} (apt-get install chromium) and playwright-core; .ci/run installs both.`);
}

/** The hosted 3DS page as a customer's browser sees it: Debian's Chromium, driven by playwright-core. */
(inBrowser ? describe : describe.skip)('the hosted 3DS page in Chromium', () => {
  let tally: TallyUnderTest;
  let acme: TestTenant;
  let api: ReturnType<TallyUnderTest['as']>;
  let browser: Browser;
  let base: string;
  /** The merchant's site, where the page sends the customer back to: it echoes the address it was reached at. */
  let merchant: Server;
  let shop: string;

  beforeAll(async () => {
    // Tally's public URL is the address it listens on, as `npm start`'s default is.
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    ({ tally, acme, api } = await TallyUnderTest.withTenant({ publicUrl: base }));
    await tally.liftRateLimits(acme.tenantId);
    const server = tally.app.getHttpServer();
    await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
    merchant = createServer((request, response) => response.writeHead(200, { 'Content-Type': 'text/html' }).end(`<p id="shop">Back at the shop: ${request.url}</p>`));
    await new Promise<void>((resolve) => merchant.listen(0, '127.0.0.1', resolve));
    shop = `http://127.0.0.1:${(merchant.address() as AddressInfo).port}`;
    const { chromium } = await import('playwright-core');
    browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await tally?.stop();
    await new Promise((resolve) => merchant?.close(resolve));
  });

  /** A payment of an open invoice waiting for 3DS, and the page its `next_action` sends the customer to: an absolute URL under the public one. */
  const waitingPayment = async (body: { return_url?: string } = {}) => {
    const customer = (await api.post('/v1/customers', { email: 'sca@example.com' }).expect(200)).body.id as string;
    await api.post(`/v1/customers/${customer}/payment-methods`, { type: 'card', token: 'tok_3ds_required', set_as_default: true }).expect(200);
    const invoice = (await api.post('/v1/invoices', { customer_id: customer, currency: 'EUR', auto_charge: false, lines: [{ description: 'Annual licence', quantity: '1', unit_amount: '120.00' }] }).expect(200)).body.id as string;
    await api.post(`/v1/invoices/${invoice}/finalize`).expect(200);
    const payment = (await api.post(`/v1/invoices/${invoice}/pay`, body).expect(200)).body as { id: string; status: string; next_action: { url: string } };
    expect(payment.status).toBe('requires_action');
    expect(payment.next_action.url.startsWith(`${base}/payment-actions/${payment.id}?`)).toBe(true);
    return { invoice, payment: payment.id, url: payment.next_action.url };
  };

  it('shows the merchant and the amount; authenticating pays the invoice and the page says so', async () => {
    const { invoice, payment, url } = await waitingPayment();
    const page = await browser.newPage();
    try {
      await page.goto(url);
      expect(await page.textContent('#merchant')).toBe('Acme');
      expect(await page.textContent('#amount')).toBe('120.00 EUR');
      await Promise.all([page.waitForURL(/\/payment-actions\//), page.click('#authenticate')]);
      expect(await page.textContent('#outcome')).toContain('The payment succeeded');
    } finally {
      await page.close();
    }
    expect((await api.get(`/v1/payments/${payment}`).expect(200)).body).toMatchObject({ status: 'succeeded', next_action: null });
    await tally.settle();
    expect((await api.get(`/v1/invoices/${invoice}`).expect(200)).body.status).toBe('paid');
  });

  it('fails the payment when the customer fails to authenticate, and the page says so', async () => {
    const { invoice, payment, url } = await waitingPayment();
    const page = await browser.newPage();
    try {
      await page.goto(url);
      await Promise.all([page.waitForURL(/\/payment-actions\//), page.click('#fail')]);
      expect(await page.textContent('#outcome')).toContain('Authentication failed');
      // Back on the page later: the outcome, and no buttons.
      await page.goto(url);
      expect(await page.$('#authenticate')).toBeNull();
    } finally {
      await page.close();
    }
    expect((await api.get(`/v1/payments/${payment}`).expect(200)).body).toMatchObject({ status: 'failed', last_error: { code: 'authentication_failed' } });
    await tally.settle();
    expect((await api.get(`/v1/invoices/${invoice}`).expect(200)).body.status).toBe('open');
  });

  it('takes the customer back to the merchant’s return URL with the payment id, after authenticating or failing', async () => {
    for (const [button, status] of [
      ['#authenticate', 'succeeded'],
      ['#fail', 'failed'],
    ] as const) {
      const { payment, url } = await waitingPayment({ return_url: `${shop}/orders/7?step=3ds` });
      const page = await browser.newPage();
      try {
        await page.goto(url);
        await Promise.all([page.waitForURL(`${shop}/**`), page.click(button)]);
        expect(page.url()).toBe(`${shop}/orders/7?step=3ds&payment_id=${payment}`);
        expect(await page.textContent('#shop')).toBe(`Back at the shop: /orders/7?step=3ds&payment_id=${payment}`);
        // Back on Tally's page later: the outcome, and the way back to the merchant.
        await page.goto(url);
        expect(await page.getAttribute('#return', 'href')).toBe(`${shop}/orders/7?step=3ds&payment_id=${payment}`);
      } finally {
        await page.close();
      }
      expect((await api.get(`/v1/payments/${payment}`).expect(200)).body).toMatchObject({ status, return_url: `${shop}/orders/7?step=3ds` });
    }
  });

  it('refuses a link with a changed signature, and changes nothing', async () => {
    const { payment, url } = await waitingPayment();
    const page = await browser.newPage();
    try {
      const forged = url.replace(/signature=([A-Za-z0-9_-])/, (_match, first: string) => `signature=${first === 'A' ? 'B' : 'A'}`);
      const response = await page.goto(forged);
      expect(response?.status()).toBe(403);
      expect(await page.textContent('body')).toContain('payment_action.invalid_signature');
    } finally {
      await page.close();
    }
    expect((await api.get(`/v1/payments/${payment}`).expect(200)).body.status).toBe('requires_action');
  });
});
