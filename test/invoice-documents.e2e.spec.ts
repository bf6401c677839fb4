import Big from 'big.js';
import type request from 'supertest';
import { pdfText } from '@tally/invoicing/documents/testing/pdf-text';
import { PUBLIC_URL, TallyUnderTest, type TestTenant } from './support/tally';

/** A response body as raw bytes, whatever its type. */
const bytes = (test: request.Test) =>
  test.buffer(true).parse((response, done) => {
    const chunks: Buffer[] = [];
    response.on('data', (chunk: Buffer) => chunks.push(chunk));
    response.on('end', () => done(null, Buffer.concat(chunks)));
  });

describe('invoice documents through HTTP', () => {
  let tally: TallyUnderTest;
  let acme: TestTenant;
  let api: ReturnType<TallyUnderTest['as']>;
  let invoiceId: string;
  let number: string;

  beforeAll(async () => {
    ({ tally, acme, api } = await TallyUnderTest.withTenant());
    const customer = (await api.post('/v1/customers', { email: 'ada@example.com', name: 'Ada Lovelace', billing_address: { line1: '1 Analytical Row', city: 'London', country: 'GB', postal_code: 'N1' } }).expect(200)).body;
    const components = [
      { code: 'base', pricing: { model: 'flat', amount: '20.00' } },
      { code: 'seats', pricing: { model: 'per_unit', unit_amount: '5.00' } },
    ];
    await api.post('/v1/plans', { code: 'docs', product_code: 'docs', currency: 'EUR', interval: 'month', interval_count: 1, components }).expect(200);
    const subscription = (await api.post('/v1/subscriptions', { customer_id: customer.id, plan_code: 'docs', quantities: { seats: 5 } }).expect(200)).body;
    await tally.settle();
    const [invoice] = (await api.get(`/v1/invoices?subscription_id=${subscription.id}`).expect(200)).body.data;
    invoiceId = invoice.id;
    number = invoice.number;
    await api.post(`/v1/invoices/${invoiceId}/credit-notes`, { reason: 'order_change', amount: '7.50' }).expect(200);
  });

  afterAll(() => tally.stop());

  const linkOf = async (id = invoiceId) => (await api.get(`/v1/invoices/${id}/pdf`).set('Accept', 'application/json').expect(200)).body as { object: string; url: string; expires_at: string };
  const signedLink = () => new RegExp(`^${PUBLIC_URL}/invoice-pdfs/${invoiceId}\\?tenant=${acme.tenantId}&environment=sandbox&expires=[0-9]+&signature=[A-Za-z0-9_-]{43}$`);

  describe('GET /v1/invoices/{id}/pdf', () => {
    it('redirects to a signed link under the public URL, without Accept, with */* and with application/pdf; the link serves the PDF', async () => {
      for (const accept of [undefined, '*/*', 'application/pdf', 'text/html,application/xhtml+xml,*/*;q=0.8', 'application/pdf, application/json;q=0.9']) {
        const asked = api.get(`/v1/invoices/${invoiceId}/pdf`);
        const redirect = await (accept === undefined ? asked : asked.set('Accept', accept)).expect(302);
        expect([accept, redirect.headers.location]).toEqual([accept, expect.stringMatching(signedLink())]);
        expect(redirect.headers).toMatchObject({ vary: 'Accept', 'cache-control': 'private, no-store' });
        expect(redirect.text).toBe('');
        const followed = await bytes(tally.http().get(redirect.headers.location)).expect(200);
        expect(followed.headers['content-type']).toBe('application/pdf');
        expect((await pdfText(followed.body as Buffer)).replace(/\s+/g, ' ')).toContain(`Total (EUR) 45.00`);
      }
    });

    it('answers the signed link as JSON, expiring in five minutes, to a client that prefers application/json', async () => {
      for (const accept of ['application/json', 'application/json, text/plain, */*', 'application/pdf;q=0.5, application/json']) {
        const link = (await api.get(`/v1/invoices/${invoiceId}/pdf`).set('Accept', accept).expect(200).expect('Content-Type', /^application\/json/)).body;
        expect([accept, link]).toEqual([
          accept,
          { object: 'invoice_pdf_link', invoice_id: invoiceId, url: expect.stringMatching(signedLink()), expires_at: new Date(tally.clock.now().getTime() + 300_000).toISOString() },
        ]);
      }
    });

    it('answers 404 for an unknown invoice, another environment’s or another tenant’s', async () => {
      for (const agent of [tally.as(acme.live), tally.as((await tally.tenant('Globex', 'eu')).sandbox)]) {
        const response = await agent.get(`/v1/invoices/${invoiceId}/pdf`).expect(404);
        expect(response.body.problem).toBe('invoice.not_found');
      }
      expect((await api.get('/v1/invoices/inv_nope/pdf').expect(404)).body.problem).toBe('invoice.not_found');
    });

    it('needs an API key', async () => {
      expect((await tally.http().get(`/v1/invoices/${invoiceId}/pdf`).expect(401)).body.problem).toBe('auth.missing_api_key');
    });
  });

  describe('the signed link', () => {
    it('serves the invoice as a PDF without an API key, from the tenant to the customer', async () => {
      const response = await bytes(tally.http().get((await linkOf()).url)).expect(200);
      expect(response.headers['content-type']).toBe('application/pdf');
      expect(response.headers['content-disposition']).toBe(`inline; filename="${number}.pdf"`);
      expect(response.headers['cache-control']).toBe('private, no-store');
      const text = (await pdfText(response.body as Buffer)).replace(/\s+/g, ' ');
      for (const expected of ['Acme', number, 'Ada Lovelace', 'ada@example.com', 'seats 2026-05-01 – 2026-06-01 5 5.00 25.00', 'Total (EUR) 45.00', 'Amount due (EUR) 37.50']) expect(text).toContain(expected);
    });

    it('is the invoice’s pdf_url once it is finalised', async () => {
      const invoice = (await api.get(`/v1/invoices/${invoiceId}`).expect(200)).body;
      expect(invoice.pdf_url).toMatch(signedLink());
      const response = await bytes(tally.http().get(invoice.pdf_url)).expect(200);
      expect(response.headers['content-type']).toBe('application/pdf');
      const listed = (await api.get(`/v1/invoices?status=open`).expect(200)).body.data;
      expect(listed.every((item: { pdf_url: string | null }) => item.pdf_url?.startsWith(`${PUBLIC_URL}/invoice-pdfs/`))).toBe(true);
      const draft = (await api.post('/v1/invoices', { customer_id: invoice.customer_id, currency: 'EUR' }).expect(200)).body;
      expect(draft.pdf_url).toBeNull();
    });

    it('answers 403 once expired', async () => {
      const { url } = await linkOf();
      tally.clock.advance(300_000);
      const response = await tally.http().get(url).expect(403).expect('Content-Type', /application\/problem\+json/);
      expect(response.body.problem).toBe('invoice_pdf.link_expired');
    });

    it('answers 403 when any part was changed, the tenant included', async () => {
      const { url } = await linkOf();
      const globex = await tally.tenant('Globex2', 'eu');
      const tampered = [
        url.replace(invoiceId, 'inv_01JTDOCUMENTS00000000000002'),
        url.replace(acme.tenantId, globex.tenantId),
        url.replace('environment=sandbox', 'environment=live'),
        url.replace(/expires=([0-9]+)/, (_, expires: string) => `expires=${Number(expires) + 3600}`),
        url.replace(/signature=(.)/, (_, first: string) => `signature=${first === 'A' ? 'B' : 'A'}`),
        url.replace(/&signature=.*$/, ''),
        url.split('?')[0],
      ];
      for (const link of tampered) {
        const response = await tally.http().get(link).expect(403);
        expect([link, response.body.problem]).toEqual([link, 'invoice_pdf.invalid_signature']);
      }
    });
  });

  describe('GET /v1/invoices/{id}/recognition-schedule', () => {
    it('spreads the lines over their days, less the credit note, recognised up to now', async () => {
      tally.clock.set('2026-05-11T10:00:00.000Z');
      const schedule = (await api.get(`/v1/invoices/${invoiceId}/recognition-schedule`).expect(200)).body;
      expect(schedule).toMatchObject({ object: 'recognition_schedule', invoice_id: invoiceId, currency: 'EUR', as_of: '2026-05-11T10:00:00.000Z', total: '37.50' });
      const rows = schedule.rows as { date: string; amount: string; recognized: boolean; credit_note_id: string | null }[];
      expect(rows.reduce((sum, row) => sum.plus(row.amount), new Big(0)).toFixed(2)).toBe('37.50');
      expect(rows[0].date).toBe('2026-05-01');
      expect(rows.filter((row) => row.recognized).every((row) => row.date < '2026-05-11')).toBe(true);
      expect(rows.filter((row) => row.recognized).length).toBeGreaterThan(0);
      expect(new Big(schedule.recognized_to_date).plus(schedule.deferred).toFixed(2)).toBe('37.50');
    });

    it('answers 404 for an unknown invoice', async () => {
      expect((await api.get('/v1/invoices/inv_nope/recognition-schedule').expect(404)).body.problem).toBe('invoice.not_found');
    });
  });
});
