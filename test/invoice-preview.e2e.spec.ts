import { TallyUnderTest, type TestTenant } from './support/tally';

/** Pricing, discounts and tax together, through POST /v1/invoices/preview. */
describe('tax settings and invoice previews through the HTTP API', () => {
  let tally: TallyUnderTest;
  let acme: TestTenant;
  let api: ReturnType<TallyUnderTest['as']>;

  beforeAll(async () => {
    ({ tally, acme, api } = await TallyUnderTest.withTenant());
    await api
      .post('/v1/plans', {
        code: 'team',
        product_code: 'team',
        currency: 'EUR',
        interval: 'month',
        interval_count: 1,
        components: [
          { code: 'base', pricing: { model: 'flat', amount: '49.00' } },
          { code: 'seats', pricing: { model: 'per_unit', unit_amount: '12.50', included_units: 3 } },
          { code: 'api_calls', pricing: { model: 'usage', aggregation: 'sum', tiers: [{ up_to: 10000, unit_amount: '0' }, { up_to: null, unit_amount: '0.0015' }] } },
          { code: 'ebooks', pricing: { model: 'flat', amount: '10.00' }, tax_code: 'reduced' },
        ],
      })
      .expect(200);
  });

  afterAll(() => tally.stop());

  const preview = (body: object) => api.post('/v1/invoices/preview', body);
  const totals = (body: Record<string, unknown>) => ({ subtotal: body.subtotal, discount: body.discount, tax: body.tax, total: body.total });

  it('prices every component on its own before any tax origin is set, and says tax was not calculated', async () => {
    const response = await preview({ plan: 'team', quantities: { seats: 10 }, usage: { api_calls: '25000.5' } }).expect(200);
    // base 49.00; seats (10 − 3) × 12.50 = 87.50; calls (25000.5 − 10000) × 0.0015 = 22.50075 → 22.50; ebooks 10.00.
    expect(response.body.lines.map((l: Record<string, unknown>) => [l.code, l.quantity, l.amount, l.price_version])).toEqual([
      ['base', '1', '49.00', 1],
      ['seats', '10', '87.50', 2],
      ['api_calls', '25000.5', '22.50', 3],
      ['ebooks', '1', '10.00', 4],
    ]);
    expect(response.body).toMatchObject({ object: 'invoice_preview', plan_code: 'team', currency: 'EUR', tax_status: 'requires_origin', tax_table_version: null, tax_breakdown: [] });
    expect(totals(response.body)).toEqual({ subtotal: '169.00', discount: '0.00', tax: '0.00', total: '169.00' });
  });

  it('keeps tax settings per tenant and environment: pending, then an origin', async () => {
    const pending = await api.get('/v1/tax/settings').expect(200);
    expect(pending.body).toEqual({ id: expect.stringMatching(/^txs_/), object: 'tax.settings', origin: null, status: 'pending', livemode: false, updated_at: null });
    const refused = await api.patch('/v1/tax/settings', { origin: { country: 'de' } }).expect(400);
    expect(refused.body.problem).toBe('tax.invalid_origin');
    const unassigned = await api.patch('/v1/tax/settings', { origin: { country: 'XX' } }).expect(400);
    expect(unassigned.body).toMatchObject({ problem: 'tax.invalid_origin', errors: [{ field: 'origin.country', code: 'tax.invalid_origin' }] });
    const set = await api.patch('/v1/tax/settings', { origin: { country: 'DE' } }).expect(200);
    expect(set.body).toMatchObject({ origin: { country: 'DE', region: null }, status: 'active', updated_at: tally.clock.now().toISOString() });
    await tally.settle();
    expect((await api.get('/v1/tax/settings').expect(200)).body).toEqual(set.body);
    expect((await tally.as(acme.live).get('/v1/tax/settings').expect(200)).body.status).toBe('pending');
    const events = (await api.get('/v1/events?type=tax.settings.updated').expect(200)).body.data;
    expect(events).toHaveLength(1);
  });

  describe('with the origin in Germany', () => {
    let german: string;
    let french: string;

    beforeAll(async () => {
      await api.patch('/v1/tax/settings', { origin: { country: 'DE' } }).expect(200);
      german = (await api.post('/v1/customers', { name: 'Berlin GmbH', billing_address: { country: 'DE', city: 'Berlin' } }).expect(200)).body.id;
      french = (await api.post('/v1/customers', { name: 'Paris SAS', billing_address: { country: 'FR', city: 'Paris' } }).expect(200)).body.id;
      await api.post(`/v1/customers/${french}/tax-ids`, { type: 'eu_vat', value: 'FR40303265045' }).expect(200);
      await api.post('/v1/coupons', { code: 'TENOFF', percent_off: '10', duration: 'forever' }).expect(200);
      await api.post('/v1/coupons', { code: 'FIVE', amount_off: '5.00', currency: 'EUR', duration: 'once', applies_to: { components: ['seats'] } }).expect(200);
      await tally.settle();
    });

    it('taxes each line at its rate, in the customer’s country, with a breakdown', async () => {
      const response = await preview({ plan: 'team', customer_id: german, quantities: { seats: 3 } }).expect(200);
      // 49.00 at 19 % = 9.31; ebooks 10.00 at 7 % = 0.70; seats and calls 0.
      expect(response.body.lines.map((l: Record<string, unknown>) => [l.code, l.tax_rate, l.tax_amount, l.taxability_reason])).toEqual([
        ['base', '19', '9.31', 'standard_rated'],
        ['seats', '19', '0.00', 'standard_rated'],
        ['api_calls', '19', '0.00', 'standard_rated'],
        ['ebooks', '7', '0.70', 'reduced_rated'],
      ]);
      expect(totals(response.body)).toEqual({ subtotal: '59.00', discount: '0.00', tax: '10.01', total: '69.01' });
      expect(response.body.tax_breakdown).toEqual([
        { jurisdiction: 'DE', country: 'DE', region: null, tax_type: 'vat', rate: '7', taxability_reason: 'reduced_rated', taxable_amount: '10.00', tax_amount: '0.70' },
        { jurisdiction: 'DE', country: 'DE', region: null, tax_type: 'vat', rate: '19', taxability_reason: 'standard_rated', taxable_amount: '49.00', tax_amount: '9.31' },
      ]);
      expect(response.body).toMatchObject({ tax_status: 'complete', tax_table_version: expect.any(String), reverse_charge: false, customer_id: german });
    });

    it('applies subscription-level discounts before promotional ones, restricted where the coupon says, then taxes what is left', async () => {
      const response = await preview({
        plan: 'team',
        customer_id: german,
        quantities: { seats: 5 },
        discounts: [
          { coupon: 'FIVE', level: 'promotional' },
          { coupon: 'TENOFF' },
        ],
      }).expect(200);
      // seats 2 × 12.50 = 25.00; 10 % off every line first (4.90, 2.50, 0, 1.00), then 5.00 off seats: 25.00 − 2.50 − 5.00 = 17.50.
      expect(response.body.discounts).toEqual([
        { coupon_id: expect.stringMatching(/^cpn_/), level: 'subscription', amount: '8.40' },
        { coupon_id: expect.stringMatching(/^cpn_/), level: 'promotional', amount: '5.00' },
      ]);
      const seats = response.body.lines.find((l: { code: string }) => l.code === 'seats');
      // 17.50 × 19 % = 3.325: Germany rounds commercially (half-up) to 3.33, where half-even would give 3.32.
      expect(seats).toMatchObject({ amount: '25.00', discount_amount: '7.50', tax_amount: '3.33', total: '20.83' });
      // Tax: 44.10 × 19 % = 8.379 → 8.38; 3.33; 9.00 × 7 % = 0.63.
      expect(totals(response.body)).toEqual({ subtotal: '84.00', discount: '13.40', tax: '12.34', total: '82.94' });
    });

    it('reverse-charges a cross-border business customer with an EU VAT ID, until the ID is found invalid', async () => {
      const reverse = await preview({ plan: 'team', customer_id: french }).expect(200);
      expect(reverse.body).toMatchObject({ reverse_charge: true, tax: '0.00' });
      expect(reverse.body.lines[0].taxability_reason).toBe('reverse_charge');

      const bogus = (await api.post('/v1/customers', { name: 'Lyon SARL', billing_address: { country: 'FR' } }).expect(200)).body.id;
      await api.post(`/v1/customers/${bogus}/tax-ids`, { type: 'eu_vat', value: 'FR00000000000' }).expect(200);
      await tally.settle();
      expect((await api.get(`/v1/customers/${bogus}`).expect(200)).body.tax_id_invalid).toBe(true);
      const taxed = await preview({ plan: 'team', customer_id: bogus }).expect(200);
      // French VAT: 49.00 + 10.00 (ebooks at 5.5 %) + the zero lines: 9.80 + 0.55.
      expect(taxed.body).toMatchObject({ reverse_charge: false, tax: '10.35' });
    });

    it('reverse-charges again once the last invalid tax ID is deleted', async () => {
      // The clock stands still in tests: a new second renews the sandbox's burst of writes, which the tests above spent.
      tally.clock.advance(1_000);
      const marseille = (await api.post('/v1/customers', { name: 'Marseille SA', billing_address: { country: 'FR' } }).expect(200)).body.id;
      await api.post(`/v1/customers/${marseille}/tax-ids`, { type: 'eu_vat', value: 'FR40303265045' }).expect(200);
      const mistyped = (await api.post(`/v1/customers/${marseille}/tax-ids`, { type: 'eu_vat', value: 'FR00000000000' }).expect(200)).body.id;
      await tally.settle();
      expect((await preview({ plan: 'team', customer_id: marseille }).expect(200)).body).toMatchObject({ reverse_charge: false, tax: '10.35' });

      await api.delete(`/v1/customers/${marseille}/tax-ids/${mistyped}`).expect(200);
      const reverse = await preview({ plan: 'team', customer_id: marseille }).expect(200);
      expect(reverse.body).toMatchObject({ reverse_charge: true, tax: '0.00' });
      expect(reverse.body.lines[0].taxability_reason).toBe('reverse_charge');
    });

    it('takes a customer described in the request: Canada, British Columbia, with GST and PST', async () => {
      const response = await preview({ plan: 'team', customer_details: { address: { country: 'CA', region: 'BC' } } }).expect(200);
      expect(response.body.tax_breakdown.map((b: Record<string, unknown>) => [b.jurisdiction, b.tax_type, b.rate, b.tax_amount])).toEqual([
        ['CA', 'gst', '5', '2.95'],
        ['CA-BC', 'pst', '7', '4.13'],
      ]);
    });

    it('takes tax out of inclusive prices, stating subtotal and discount without tax', async () => {
      await api.post('/v1/plans', { code: 'inclusive', product_code: 'inc', currency: 'EUR', interval: 'month', interval_count: 1, tax_behavior: 'inclusive', components: [{ code: 'base', pricing: { model: 'flat', amount: '119.00' } }] }).expect(200);
      const response = await preview({ plan: 'inclusive', customer_id: german, discounts: [{ coupon: 'TENOFF' }] }).expect(200);
      expect(response.body.lines[0]).toMatchObject({ amount: '119.00', amount_excluding_tax: '100.00', discount_amount: '10.00', tax_amount: '17.10', total: '107.10' });
      expect(totals(response.body)).toEqual({ subtotal: '100.00', discount: '10.00', tax: '17.10', total: '107.10' });
      expect(response.body.discounts[0].amount).toBe('11.90');
    });

    it('prices each period with the price version in force at its start', async () => {
      const march = '2026-09-01T00:00:00.000Z';
      await api.patch('/v1/plans/team/components/base', { pricing: { model: 'flat', amount: '59.00' }, effective_at: march }).expect(200);
      const before = await preview({ plan: 'team', period_start: '2026-08-15T00:00:00Z' }).expect(200);
      const after = await preview({ plan: 'team', period_start: march }).expect(200);
      expect(before.body.lines[0]).toMatchObject({ amount: '49.00', price_version: 1 });
      expect(after.body.lines[0]).toMatchObject({ amount: '59.00', price_version: 5, period_start: march, period_end: '2026-10-01T00:00:00.000Z' });
    });
  });

  it('takes the plan as plan_code, as a subscription names it, or as plan, its earlier name', async () => {
    const byCode = await preview({ plan_code: 'team', quantities: { seats: 4 } }).expect(200);
    const byAlias = await preview({ plan: 'team', quantities: { seats: 4 } }).expect(200);
    expect(byCode.body).toMatchObject({ plan_code: 'team', subtotal: '71.50' });
    expect(byCode.body).toEqual(byAlias.body);
    const byId = await preview({ plan_code: byCode.body.plan_id, quantities: { seats: 4 } }).expect(200);
    expect(byId.body).toEqual(byCode.body);
  });

  describe('refusals', () => {
    beforeAll(async () => {
      await api.post('/v1/coupons', { code: 'DOLLARS', amount_off: '5.00', currency: 'USD', duration: 'once' }).expect(200);
      await api.post('/v1/coupons', { code: 'ONCEONLY', percent_off: '5', duration: 'once', redeem_by: new Date(tally.clock.now().getTime() + 1000).toISOString() }).expect(200);
      await api.post('/v1/plans', { code: 'gone', product_code: 'gone', currency: 'EUR', interval: 'month', interval_count: 1 }).expect(200);
      await api.patch('/v1/plans/gone', { status: 'deleted' }).expect(200);
    });

    it.each([
      ['an unknown plan', { plan: 'nope' }, 404, 'plan.not_found'],
      ['a deleted plan', { plan: 'gone' }, 409, 'plan.deleted'],
      ['a meter of no component', { plan: 'team', quantities: { sets: 2 } }, 400, 'invoice_preview.unknown_meter'],
      ['a usage meter given as a quantity', { plan: 'team', quantities: { api_calls: 2 } }, 400, 'invoice_preview.unknown_meter'],
      ['a fractional seat count', { plan: 'team', quantities: { seats: 1.5 } }, 400, 'invoice_preview.invalid_quantity'],
      ['usage in exponent notation', { plan: 'team', usage: { api_calls: '1.0e3' } }, 400, 'invoice_preview.invalid_quantity'],
      ['negative usage', { plan: 'team', usage: { api_calls: '-1' } }, 400, 'invoice_preview.invalid_quantity'],
      ['usage with a sign, even of zero', { plan: 'team', usage: { api_calls: '-0' } }, 400, 'invoice_preview.invalid_quantity'],
      ['an unknown coupon', { plan: 'team', discounts: [{ coupon: 'NOPE' }] }, 404, 'coupon.not_found'],
      ['a coupon in another currency', { plan: 'team', discounts: [{ coupon: 'DOLLARS' }] }, 400, 'coupon.currency_mismatch'],
      ['a coupon twice', { plan: 'team', discounts: [{ coupon: 'TENOFF' }, { coupon: 'TENOFF', level: 'promotional' }] }, 400, 'invoice_preview.duplicate_coupon'],
      ['an unknown customer', { plan: 'team', customer_id: 'cus_01JNOPE000000000000000000' }, 404, 'customer.not_found'],
      ['the plan under both names', { plan_code: 'team', plan: 'team' }, 400, 'invoice_preview.plan_given_twice'],
      ['no plan', { quantities: { seats: 2 } }, 400, 'request.invalid_body'],
      ['a customer given twice', { plan: 'team', customer_id: 'cus_01JNOPE000000000000000000', customer_details: { address: { country: 'DE' } } }, 400, 'invoice_preview.customer_given_twice'],
    ])('refuses %s', async (_name, body, status, code) => {
      const before = await tally.head();
      const response = await preview(body);
      expect(response.status).toBe(status);
      expect(response.body.problem).toBe(code);
      expect(await tally.head()).toBe(before);
    });

    it('refuses an expired coupon', async () => {
      tally.clock.advance(2000);
      const response = await preview({ plan: 'team', discounts: [{ coupon: 'ONCEONLY' }] }).expect(409);
      expect(response.body.problem).toBe('coupon.expired');
    });
  });
});
