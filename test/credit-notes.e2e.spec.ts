import type request from 'supertest';
import { pdfText } from '@tally/invoicing/documents/testing/pdf-text';
import { InvoiceNumbering } from '@tally/invoicing';
import { PUBLIC_URL, TallyUnderTest, type TestTenant } from './support/tally';
import { eventually, WebhookReceiver } from './support/webhook-receiver';

const bytes = (test: request.Test) =>
  test.buffer(true).parse((response, done) => {
    const chunks: Buffer[] = [];
    response.on('data', (chunk: Buffer) => chunks.push(chunk));
    response.on('end', () => done(null, Buffer.concat(chunks)));
  });

type CreditNote = { id: string; number: string; invoice_id: string; customer_id: string; amount: string; outcome: { kind: string; refund_status: string | null } } & Record<string, unknown>;
type Page = { data: CreditNote[]; has_more: boolean; next_cursor?: string | null } & Record<string, unknown>;

/** Credit notes as a resource of their own, and their outcomes on the invoice. */
describe('credit notes through the HTTP API', () => {
  let tally: TallyUnderTest;
  let acme: TestTenant;
  let api: ReturnType<TallyUnderTest['as']>;

  beforeAll(async () => {
    ({ tally, acme, api } = await TallyUnderTest.withTenant());
    await tally.liftRateLimits(acme.tenantId);
  });
  afterAll(() => tally.stop());

  /** A customer and one open invoice of two lines (100.00 and 50.00, without tax). */
  const openInvoice = async () => {
    const customer = (await api.post('/v1/customers', { email: 'credited@example.com' }).expect(200)).body.id as string;
    const lines = [
      { description: 'A', quantity: '1', unit_amount: '100.00' },
      { description: 'B', quantity: '1', unit_amount: '50.00' },
    ];
    const draft = (await api.post('/v1/invoices', { customer_id: customer, currency: 'EUR', auto_charge: false, lines }).expect(200)).body as { id: string };
    const open = (await api.post(`/v1/invoices/${draft.id}/finalize`).expect(200)).body as { id: string; number: string; lines: { id: string }[]; total: string };
    return { customer, invoice: open };
  };
  const issue = async (invoice: string, body: object) => (await api.post(`/v1/invoices/${invoice}/credit-notes`, body).expect(200)).body as CreditNote;
  const get = async <T>(path: string) => (await api.get(path).expect(200)).body as T;

  it('shows each credit note on its own as on its invoice, and lists them by invoice and customer, a page at a time', async () => {
    const { customer, invoice } = await openInvoice();
    const first = await issue(invoice.id, { reason: 'order_change', amount: '15.00' });
    const second = await issue(invoice.id, { reason: 'duplicate', lines: [{ line_id: invoice.lines[1].id, amount: '5.00' }] });
    const other = await openInvoice();
    const elsewhere = await issue(other.invoice.id, { reason: 'other', amount: '1.00' });
    await tally.settle();

    const onInvoice = (await get<{ credit_notes: CreditNote[] }>(`/v1/invoices/${invoice.id}`)).credit_notes;
    expect(await get(`/v1/credit-notes/${first.id}`)).toEqual(onInvoice[0]);
    expect(await get(`/v1/credit-notes/${second.id}`)).toEqual(onInvoice[1]);
    expect(first).toMatchObject({ invoice_id: invoice.id, customer_id: customer, currency: 'EUR', type: 'pre_payment', outcome: { kind: 'none', refund_status: null } });

    expect((await get<Page>(`/v1/credit-notes?invoice_id=${invoice.id}`)).data.map((note) => note.id)).toEqual([second.id, first.id]);
    expect((await get<Page>(`/v1/credit-notes?customer_id=${other.customer}`)).data.map((note) => note.id)).toEqual([elsewhere.id]);
    expect((await get<Page>(`/v1/credit-notes?invoice_id=${invoice.id}&sort=created_at:asc`)).data.map((note) => note.id)).toEqual([first.id, second.id]);

    const pageOne = await get<Page>(`/v1/credit-notes?invoice_id=${invoice.id}&limit=1`);
    expect(pageOne).toMatchObject({ has_more: true, data: [{ id: second.id }] });
    const cursor = pageOne.next_cursor as string;
    const pageTwo = await get<Page>(`/v1/credit-notes?invoice_id=${invoice.id}&limit=1&cursor=${encodeURIComponent(cursor)}`);
    expect(pageTwo).toMatchObject({ has_more: false, data: [{ id: first.id }] });
  });

  describe('its PDF, behind a signed short-lived link as an invoice’s', () => {
    const signedLink = (id: string) => new RegExp(`^${PUBLIC_URL}/credit-note-pdfs/${id}\\?tenant=${acme.tenantId}&environment=sandbox&expires=[0-9]+&signature=[A-Za-z0-9_-]{43}$`);
    /** A credit note of one seat (20.00, without tax) on Ada's open invoice. */
    const seatCredited = async () => {
      const customer = (await api.post('/v1/customers', { email: 'ada@example.com', name: 'Ada Lovelace' }).expect(200)).body.id as string;
      const draft = (await api.post('/v1/invoices', { customer_id: customer, currency: 'EUR', auto_charge: false, lines: [{ description: 'Seats', quantity: '2', unit_amount: '20.00' }] }).expect(200)).body as { id: string };
      const open = (await api.post(`/v1/invoices/${draft.id}/finalize`).expect(200)).body as { number: string; lines: { id: string }[] };
      const note = await issue(draft.id, { reason: 'order_change', memo: 'One seat less', lines: [{ line_id: open.lines[0].id, amount: '20.00' }] });
      await tally.settle();
      return { note, invoice: { id: draft.id, number: open.number, customer } };
    };
    const linkOf = async (id: string) => (await api.get(`/v1/credit-notes/${id}/pdf`).set('Accept', 'application/json').expect(200)).body as { object: string; url: string; expires_at: string };

    it('hands out the absolute signed link as pdf_url wherever the credit note is answered: issued, retrieved, listed, on its invoice', async () => {
      const { note, invoice } = await seatCredited();
      expect(note.pdf_url).toMatch(signedLink(note.id));
      expect((await get<CreditNote>(`/v1/credit-notes/${note.id}`)).pdf_url).toBe(note.pdf_url);
      expect((await get<Page>(`/v1/credit-notes?invoice_id=${invoice.id}`)).data.map((listed) => listed.pdf_url)).toEqual([note.pdf_url]);
      expect((await get<{ credit_notes: CreditNote[] }>(`/v1/invoices/${invoice.id}`)).credit_notes.map((onInvoice) => onInvoice.pdf_url)).toEqual([note.pdf_url]);
      expect((await get<Page>(`/v1/invoices?customer_id=${invoice.customer}`)).data.flatMap((listed) => (listed.credit_notes as CreditNote[]).map((onInvoice) => onInvoice.pdf_url))).toEqual([note.pdf_url]);
    });

    it('serves the credit note as a PDF without an API key: from the tenant to the customer, its number, invoice, lines with their tax, total and outcome', async () => {
      const { note, invoice } = await seatCredited();
      const response = await bytes(tally.http().get(note.pdf_url as string)).expect(200);
      expect(response.headers).toMatchObject({
        'content-type': 'application/pdf',
        'content-disposition': `inline; filename="${note.number}.pdf"`,
        'cache-control': 'private, no-store',
        'x-content-type-options': 'nosniff',
        'referrer-policy': 'no-referrer',
      });
      const text = (await pdfText(response.body as Buffer)).replace(/\s+/g, ' ');
      for (const expected of ['Acme', 'Credit note', note.number, invoice.number, 'Ada Lovelace', 'order change', 'Seats 0.00 20.00', 'Total credited 0.00 20.00', 'Deducted from the amount due', 'One seat less']) expect(text).toContain(expected);
    });

    it('GET /v1/credit-notes/{id}/pdf answers as the invoice’s: a redirect to the link, or the link as JSON to a client that prefers it', async () => {
      const { note } = await seatCredited();
      for (const accept of [undefined, '*/*', 'application/pdf', 'application/pdf, application/json;q=0.9']) {
        const asked = api.get(`/v1/credit-notes/${note.id}/pdf`);
        const redirect = await (accept === undefined ? asked : asked.set('Accept', accept)).expect(302);
        expect([accept, redirect.headers.location, redirect.text]).toEqual([accept, expect.stringMatching(signedLink(note.id)), '']);
        expect(redirect.headers).toMatchObject({ vary: 'Accept', 'cache-control': 'private, no-store' });
      }
      const followed = await bytes(tally.http().get((await api.get(`/v1/credit-notes/${note.id}/pdf`).expect(302)).headers.location)).expect(200);
      expect((await pdfText(followed.body as Buffer)).replace(/\s+/g, ' ')).toContain(`Total credited 0.00 20.00`);
      const link = await linkOf(note.id);
      expect(link).toEqual({ object: 'credit_note_pdf_link', credit_note_id: note.id, url: expect.stringMatching(signedLink(note.id)), expires_at: new Date(tally.clock.now().getTime() + 300_000).toISOString() });
      expect((await api.get('/v1/credit-notes/cn_01JNOPE0000000000000000000/pdf').expect(404)).body.problem).toBe('credit_note.not_found');
      expect((await tally.as(acme.live).get(`/v1/credit-notes/${note.id}/pdf`).expect(404)).body.problem).toBe('credit_note.not_found');
      expect((await tally.http().get(`/v1/credit-notes/${note.id}/pdf`).expect(401)).body.problem).toBe('auth.missing_api_key');
    });

    it('refuses a changed link, an invoice’s link on the credit note’s path, and an expired one, with the invoice link’s codes', async () => {
      const { note, invoice } = await seatCredited();
      const { url } = await linkOf(note.id);
      const invoiceLink = (await api.get(`/v1/invoices/${invoice.id}/pdf`).set('Accept', 'application/json').expect(200)).body.url as string;
      const tampered = [
        url.replace(note.id, 'cn_01JTDOCUMENTS00000000000002'),
        url.replace(acme.tenantId, `${acme.tenantId}X`),
        url.replace('environment=sandbox', 'environment=live'),
        url.replace(/expires=([0-9]+)/, (_, expires: string) => `expires=${Number(expires) + 3600}`),
        url.replace(/signature=(.)/, (_, first: string) => `signature=${first === 'A' ? 'B' : 'A'}`),
        url.replace(/&signature=.*$/, ''),
        url.split('?')[0],
        invoiceLink.replace(`/invoice-pdfs/${invoice.id}`, `/credit-note-pdfs/${invoice.id}`),
      ];
      for (const link of tampered) {
        const response = await tally.http().get(link).expect(403).expect('Content-Type', /application\/problem\+json/);
        expect([link, response.body.problem]).toEqual([link, 'invoice_pdf.invalid_signature']);
      }
      tally.clock.advance(299_000);
      await bytes(tally.http().get(url)).expect(200);
      tally.clock.advance(1_000);
      const expired = await tally.http().get(url).expect(403).expect('Content-Type', /application\/problem\+json/);
      expect(expired.body.problem).toBe('invoice_pdf.link_expired');
    });

    it('leaves pdf_url null in the event log and webhook bodies, as the invoice’s: a delivery is retried for a day, a link lasts five minutes', async () => {
      const hooks = await WebhookReceiver.start();
      try {
        await api.post('/v1/admin/webhook-endpoints', { url: hooks.url, events: ['credit_note.created'] }).expect(200);
        const { note, invoice } = await seatCredited();
        const logged = (await get<{ data: { data: { credit_notes: CreditNote[] } }[] }>(`/v1/events?aggregate_id=${invoice.id}&type=credit_note.created`)).data;
        expect(logged.map((event) => event.data.credit_notes.map((onInvoice) => [onInvoice.id, onInvoice.pdf_url]))).toEqual([[[note.id, null]]]);
        await eventually(() => hooks.acknowledged.some((delivery) => delivery.event.aggregate_id === invoice.id), 10_000, 'the credit_note.created delivery');
        const delivered = hooks.acknowledged.find((delivery) => delivery.event.aggregate_id === invoice.id)!.event.data as { credit_notes: CreditNote[] };
        expect(delivered.credit_notes.map((onInvoice) => [onInvoice.id, onInvoice.pdf_url])).toEqual([[note.id, null]]);
      } finally {
        await hooks.stop();
      }
    });
  });

  it('numbers credit notes from the tenant’s own gap-free sequence, also when the issuer died between the decision and the number', async () => {
    const { invoice } = await openInvoice();
    const first = await issue(invoice.id, { reason: 'order_change', amount: '1.00' });
    expect(first.number).toMatch(new RegExp(`^${invoice.number.split('-')[0]}-CN-[0-9]{6}$`));
    const sequence = (number: string) => Number(number.slice(-6));
    // The issuer decides the next one, then dies before asking for its number: the worker's reaction numbers it, next in the sequence.
    const numbering = tally.app.get(InvoiceNumbering);
    const crash = jest.spyOn(numbering, 'reserve').mockImplementationOnce(() => Promise.reject(new Error('killed')));
    try {
      expect((await api.post(`/v1/invoices/${invoice.id}/credit-notes`, { reason: 'order_change', amount: '2.00' })).status).toBe(500);
      await tally.settle();
    } finally {
      crash.mockRestore();
    }
    const notes = (await get<{ credit_notes: CreditNote[] }>(`/v1/invoices/${invoice.id}`)).credit_notes;
    expect(notes.map((note) => [note.amount, sequence(note.number) - sequence(first.number)])).toEqual([
      ['1.00', 0],
      ['2.00', 1],
    ]);
    const third = await issue(invoice.id, { reason: 'order_change', amount: '3.00' });
    expect(sequence(third.number) - sequence(first.number)).toBe(2);
  });

  it('refuses what it does not know', async () => {
    expect((await api.get('/v1/credit-notes/cn_01JNOPE0000000000000000000').expect(404)).body.problem).toBe('credit_note.not_found');
    expect((await api.get('/v1/credit-notes?status=issued').expect(400)).body.problem).toBe('request.invalid_parameter');
    expect((await api.get('/v1/credit-notes?sort=amount:asc').expect(400)).body.problem).toBe('request.invalid_parameter');
  });

  it('credits what a paid invoice was paid to the wallet by default, and never more', async () => {
    const { customer, invoice } = await openInvoice();
    await api.post(`/v1/customers/${customer}/payment-methods`, { type: 'card', token: 'tok_visa', set_as_default: true }).expect(200);
    await api.post(`/v1/invoices/${invoice.id}/pay`, {}).expect(200);
    const credited = await issue(invoice.id, { reason: 'product_unsatisfactory', amount: '30.00' });
    expect(credited).toMatchObject({ amount: '30.00', type: 'post_payment', outcome: { kind: 'credit_balance', refund_status: null }, refund_id: null, payment_id: null });
    expect(await get(`/v1/invoices/${invoice.id}`)).toMatchObject({ status: 'paid', amount_paid: '150.00', amount_due: '0.00' });
    expect((await api.post(`/v1/invoices/${invoice.id}/credit-notes`, { reason: 'duplicate', amount: '120.01', outcome: 'credit_balance' }).expect(409)).body.problem).toBe('credit_note.exceeds_invoice');
    expect((await api.post(`/v1/invoices/${invoice.id}/credit-notes`, { reason: 'duplicate', amount: '1.00', outcome: 'none' }).expect(409)).body.problem).toBe('credit_note.outcome_required');
    await tally.settle();
    expect(await get(`/v1/credit-notes/${credited.id}`)).toEqual(credited);
    // The money reached the customer's wallet in the invoice's currency (made for it), from this credit note.
    const { data: wallets } = await get<{ data: { id: string; currency: string; balance: string }[] }>(`/v1/wallets?customer_id=${customer}`);
    expect(wallets).toEqual([expect.objectContaining({ currency: 'EUR', balance: '30.00' })]);
    const [wallet] = wallets;
    expect((await get<{ data: unknown[] }>(`/v1/wallets/${wallet.id}/transactions`)).data).toEqual([
      expect.objectContaining({ type: 'credit', amount: '30.00', balance_after: '30.00', reason: 'credit_note', source: { type: 'credit_note', id: credited.id } }),
    ]);
  });

  it('credits an unpaid invoice only by lowering what is due', async () => {
    const { invoice } = await openInvoice();
    expect((await api.post(`/v1/invoices/${invoice.id}/credit-notes`, { reason: 'duplicate', amount: '1.00', outcome: 'credit_balance' }).expect(409)).body.problem).toBe('credit_note.exceeds_invoice');
    expect((await api.post(`/v1/invoices/${invoice.id}/credit-notes`, { reason: 'duplicate', amount: '1.00', outcome: 'refund' }).expect(409)).body.problem).toBe('credit_note.exceeds_invoice');
    expect((await api.post(`/v1/invoices/${invoice.id}/credit-notes`, { reason: 'duplicate', amount: '1.00', outcome: 'refunded' }).expect(400)).body.problem).toBe('request.invalid_body');
    expect((await api.post(`/v1/invoices/${invoice.id}/credit-notes`, { reason: 'duplicate', amount: '1.00', payment_id: 'pay_1' }).expect(400)).body.problem).toBe('credit_note.invalid');
    const all = await issue(invoice.id, { reason: 'duplicate', amount: invoice.total, outcome: 'none' });
    expect(all).toMatchObject({ type: 'pre_payment', outcome: { kind: 'none', refund_status: null } });
    expect(await get(`/v1/invoices/${invoice.id}`)).toMatchObject({ status: 'paid', amount_due: '0.00' });
    // Paid by the credit note alone: nothing was paid, so nothing can go to the wallet.
    expect((await api.post(`/v1/invoices/${invoice.id}/credit-notes`, { reason: 'duplicate', amount: '1.00' }).expect(409)).body.problem).toBe('credit_note.exceeds_invoice');
    expect((await api.post(`/v1/invoices/${invoice.id}/credit-notes`, { reason: 'duplicate', amount: '1.00', outcome: 'none' }).expect(409)).body.problem).toBe('credit_note.outcome_required');
  });
});
