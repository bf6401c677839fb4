import { TallyUnderTest, type TestTenant } from './support/tally';

describe('plans and coupons through the HTTP API', () => {
  let tally: TallyUnderTest;
  let acme: TestTenant;
  let api: ReturnType<TallyUnderTest['as']>;

  beforeAll(async () => ({ tally, acme, api } = await TallyUnderTest.withTenant()));

  afterAll(() => tally.stop());

  const seats = { code: 'seats', pricing: { model: 'per_unit', unit_amount: '5.00', included_units: 2 } };
  const base = { code: 'base', pricing: { model: 'flat', amount: '49.00' } };
  const planBody = (code: string, extra: object = {}) => ({ code, product_code: 'pro', currency: 'EUR', interval: 'month', interval_count: 1, components: [base, seats], ...extra });

  const createPlan = async (code: string, extra: object = {}) => (await api.post('/v1/plans', planBody(code, extra)).expect(200)).body;

  const expectRefused = async (send: Promise<{ status: number; body: Record<string, unknown>; headers: Record<string, string> }>, status: number, code: string) => {
    const before = await tally.head();
    const response = await send;
    expect(response.status).toBe(status);
    expect(response.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(response.body.problem).toBe(code);
    expect(await tally.head()).toBe(before);
    return response.body;
  };

  describe('plans', () => {
    it('creates a plan whose components are price versions 1…n, in force at once', async () => {
      const now = tally.clock.now().toISOString();
      const response = await api.post('/v1/plans', planBody('pro-monthly', { trial_days: 14, metadata: { tier: 'pro' } })).expect(200);
      expect(response.headers['etag']).toBe('W/"0"');
      expect(response.body).toEqual({
        id: expect.stringMatching(/^plan_[0-9A-Z]{26}$/),
        object: 'plan',
        code: 'pro-monthly',
        product_code: 'pro',
        currency: 'EUR',
        interval: 'month',
        interval_count: 1,
        trial_days: 14,
        tax_behavior: 'exclusive',
        components: [
          { code: 'base', pricing: { model: 'flat', amount: '49.00' }, tax_code: null, price_version: 1, effective_at: now },
          { code: 'seats', pricing: { model: 'per_unit', unit_amount: '5.00', included_units: 2, meter: 'seats' }, tax_code: null, price_version: 2, effective_at: now },
        ],
        price_versions: [
          { version: 1, component_code: 'base', change: 'added', pricing: { model: 'flat', amount: '49.00' }, tax_code: null, effective_at: now, created_at: now },
          { version: 2, component_code: 'seats', change: 'added', pricing: { model: 'per_unit', unit_amount: '5.00', included_units: 2, meter: 'seats' }, tax_code: null, effective_at: now, created_at: now },
        ],
        dunning_policy: null,
        metadata: { tier: 'pro' },
        status: 'active',
        livemode: false,
        created_at: now,
        updated_at: now,
      });
    });

    it('bills once per interval when interval_count is left out', async () => {
      const { interval_count: _omitted, ...body } = planBody('every-month');
      const plan = (await api.post('/v1/plans', body).expect(200)).body;
      expect(plan).toMatchObject({ interval: 'month', interval_count: 1 });
    });

    it('retrieves a plan by code and by id, from the read model', async () => {
      const plan = await createPlan('basic');
      await tally.settle();
      const byCode = await api.get('/v1/plans/basic').expect(200);
      expect(byCode.body).toEqual(plan);
      expect(byCode.headers['etag']).toBe('W/"0"');
      expect((await api.get(`/v1/plans/${plan.id}`).expect(200)).body).toEqual(plan);
    });

    it('keeps codes unique per tenant and environment', async () => {
      await createPlan('unique-code');
      await expectRefused(api.post('/v1/plans', planBody('unique-code')), 409, 'plan.code_taken');
      const live = (await tally.as(acme.live).post('/v1/plans', planBody('unique-code')).expect(200)).body;
      const other = await tally.tenant('Globex', 'eu');
      const theirs = (await tally.as(other.sandbox).post('/v1/plans', planBody('unique-code')).expect(200)).body;
      expect(new Set([live.id, theirs.id]).size).toBe(2);
      await tally.settle();
      await tally.as(other.sandbox).get(`/v1/plans/${live.id}`).expect(404);
    });

    it.each([
      ['a lowercase currency', { currency: 'eur' }, 'money.unknown_currency'],
      ['an unknown currency', { currency: 'EUX' }, 'money.unknown_currency'],
      ['a period longer than a year', { interval: 'week', interval_count: 53 }, 'plan.invalid_interval'],
      ['an unknown interval', { interval: 'fortnight' }, 'request.invalid_body'],
      ['a code that could pass for an id', { code: 'plan_x' }, 'request.invalid_body'],
      ['two components with one code', { components: [base, base] }, 'plan.duplicate_component'],
    ])('refuses %s', async (_name, change, code) => {
      await expectRefused(api.post('/v1/plans', { ...planBody('refused'), ...change }), 400, code);
    });

    it('refuses an invalid pricing and names each bad field', async () => {
      const pricing = { model: 'tiered', tiers: [{ up_to: 10, unit_amount: '1.00' }, { up_to: 5, unit_amount: '-0.50' }] };
      const problem = await expectRefused(api.post('/v1/plans', planBody('bad-tiers', { components: [{ code: 'calls', pricing }] })), 400, 'pricing.invalid');
      expect(problem.errors).toEqual(
        expect.arrayContaining([
          expect.objectContaining({ field: expect.stringMatching(/^components\[0\]\.pricing\.tiers/), code: 'pricing.tiers_not_ascending' }),
          expect.objectContaining({ field: 'components[0].pricing.tiers[1].unit_amount', code: 'pricing.invalid_amount' }),
        ]),
      );
    });

    it('updates mutable fields and refuses immutable ones with a clear code', async () => {
      await createPlan('mutable');
      const updated = await api.patch('/v1/plans/mutable', { trial_days: 7, metadata: { a: '1' }, currency: 'EUR' }).expect(200);
      expect(updated.body).toMatchObject({ trial_days: 7, metadata: { a: '1' } });
      expect(updated.headers['etag']).toBe('W/"1"');
      const problem = await expectRefused(api.patch('/v1/plans/mutable', { currency: 'USD', interval_count: 3 }), 400, 'plan.immutable_field');
      expect(problem.errors).toEqual([expect.objectContaining({ field: 'currency' }), expect.objectContaining({ field: 'interval_count' })]);
      await expectRefused(api.patch('/v1/plans/mutable', { components: [] }), 400, 'plan.components_read_only');
      await expectRefused(api.patch('/v1/plans/mutable', { trial_days: 8 }).set('If-Match', 'W/"0"'), 412, 'request.precondition_failed');
    });

    it('archives, reactivates and deletes a plan, and a deleted plan changes no more', async () => {
      await createPlan('lifecycle');
      expect((await api.patch('/v1/plans/lifecycle', { status: 'archived' }).expect(200)).body.status).toBe('archived');
      expect((await api.patch('/v1/plans/lifecycle', { status: 'active' }).expect(200)).body.status).toBe('active');
      expect((await api.patch('/v1/plans/lifecycle', { status: 'deleted' }).expect(200)).body.status).toBe('deleted');
      await expectRefused(api.patch('/v1/plans/lifecycle', { status: 'active' }), 409, 'plan.deleted');
      await expectRefused(api.post('/v1/plans/lifecycle/components', { code: 'extra', pricing: { model: 'flat', amount: '1' } }), 409, 'plan.deleted');
      await tally.settle();
      const plan = (await api.get('/v1/plans/lifecycle').expect(200)).body;
      const events = (await api.get(`/v1/events?aggregate_id=${plan.id}&sort=created_at:asc`).expect(200)).body.data;
      expect(events.map((e: { type: string }) => e.type)).toEqual(['plan.created', 'plan.archived', 'plan.updated', 'plan.deleted']);
      expect(events[1].previous_attributes).toEqual({ status: 'active' });
    });

    it('lists plans with filters and sorts', async () => {
      await createPlan('list-a', { product_code: 'listing' });
      await createPlan('list-b', { product_code: 'listing' });
      await api.patch('/v1/plans/list-b', { status: 'archived' }).expect(200);
      await tally.settle();
      const archived = (await api.get('/v1/plans?product_code=listing&status=archived').expect(200)).body;
      expect(archived.data.map((p: { code: string }) => p.code)).toEqual(['list-b']);
      const sorted = (await api.get('/v1/plans?code[starts]=list-&sort=code:asc').expect(200)).body;
      expect(sorted.data.map((p: { code: string }) => p.code)).toEqual(['list-a', 'list-b']);
    });
  });

  describe('components and the price book', () => {
    it('adds, reprices later and removes components, each a new price version', async () => {
      await createPlan('book');
      const added = (await api.post('/v1/plans/book/components', { code: 'storage', pricing: { model: 'package', package_size: 10, package_price: '3.00' }, tax_code: 'reduced' }).expect(200)).body;
      expect(added.components.map((c: { code: string; price_version: number }) => [c.code, c.price_version])).toEqual([['base', 1], ['seats', 2], ['storage', 3]]);

      const effective = new Date(tally.clock.now().getTime() + 30 * 86_400_000).toISOString();
      const queued = (await api.patch('/v1/plans/book/components/base', { pricing: { model: 'flat', amount: '59.00' }, effective_at: effective }).expect(200)).body;
      expect(queued.components[0]).toMatchObject({ code: 'base', pricing: { amount: '49.00' }, price_version: 1 });
      expect(queued.price_versions[3]).toMatchObject({ version: 4, component_code: 'base', change: 'changed', effective_at: effective });

      await expectRefused(api.patch('/v1/plans/book/components/base', { pricing: { model: 'flat', amount: '55.00' } }), 409, 'plan.component_change_scheduled');
      await expectRefused(api.patch('/v1/plans/book/components/nope', { pricing: { model: 'flat', amount: '1' } }), 404, 'plan.component_not_found');
      await expectRefused(api.post('/v1/plans/book/components', seats), 409, 'plan.component_exists');
      await expectRefused(
        api.patch('/v1/plans/book/components/seats', { pricing: { model: 'flat', amount: '1' }, effective_at: '2020-01-01T00:00:00Z' }),
        400,
        'plan.effective_at_in_past',
      );

      const removed = (await api.delete('/v1/plans/book/components/seats').expect(200)).body;
      expect(removed.components.map((c: { code: string }) => c.code)).toEqual(['base', 'storage']);

      await tally.settle();
      tally.clock.advance(31 * 86_400_000);
      const later = (await api.get('/v1/plans/book').expect(200)).body;
      expect(later.components[0]).toMatchObject({ code: 'base', pricing: { amount: '59.00' }, price_version: 4 });
    });
  });

  describe('coupons', () => {
    const spring = { code: 'SPRING25', name: 'Spring', percent_off: '25', duration: 'repeating', duration_in_periods: 3, max_redemptions: 100 };

    it('creates a coupon in Stripe’s shape and retrieves it by code or id', async () => {
      const created = (await api.post('/v1/coupons', spring).expect(200)).body;
      expect(created).toEqual({
        id: expect.stringMatching(/^cpn_[0-9A-Z]{26}$/),
        object: 'coupon',
        code: 'SPRING25',
        name: 'Spring',
        percent_off: '25',
        amount_off: null,
        currency: null,
        duration: 'repeating',
        duration_in_periods: 3,
        max_redemptions: 100,
        redeem_by: null,
        applies_to: null,
        times_redeemed: 0,
        valid: true,
        metadata: {},
        livemode: false,
        created_at: tally.clock.now().toISOString(),
        updated_at: tally.clock.now().toISOString(),
      });
      await tally.settle();
      expect((await api.get('/v1/coupons/SPRING25').expect(200)).body).toEqual(created);
      expect((await api.get(`/v1/coupons/${created.id}`).expect(200)).body).toEqual(created);
    });

    it('refuses invalid terms, naming the fields', async () => {
      const problem = await expectRefused(api.post('/v1/coupons', { code: 'BAD', percent_off: '120', amount_off: '5', duration: 'once', duration_in_periods: 2 }), 400, 'coupon.invalid');
      expect((problem.errors as { code: string }[]).map((e) => e.code).sort()).toEqual(
        ['coupon.invalid_duration', 'coupon.invalid_percent', 'coupon.percent_or_amount', 'money.unknown_currency'].sort(),
      );
    });

    it('updates name and metadata, deletes, and keeps the code taken', async () => {
      await api.post('/v1/coupons', { code: 'FIVE', amount_off: '5.00', currency: 'EUR', duration: 'once', applies_to: { components: ['seats'] } }).expect(200);
      const renamed = (await api.patch('/v1/coupons/FIVE', { name: 'Five off', metadata: { campaign: 'q2' } }).expect(200)).body;
      expect(renamed).toMatchObject({ name: 'Five off', metadata: { campaign: 'q2' }, applies_to: { components: ['seats'] } });
      const deleted = (await api.delete('/v1/coupons/FIVE').expect(200)).body;
      expect(deleted).toEqual({ id: renamed.id, object: 'coupon', deleted: true });
      await tally.settle();
      await api.get('/v1/coupons/FIVE').expect(404);
      await expectRefused(api.post('/v1/coupons', { code: 'FIVE', percent_off: '5', duration: 'once' }), 409, 'coupon.code_taken');
      const events = (await api.get(`/v1/events?aggregate_id=${renamed.id}&sort=created_at:asc`).expect(200)).body.data;
      expect(events.map((e: { type: string }) => e.type)).toEqual(['coupon.created', 'coupon.updated', 'coupon.deleted']);
      expect(events[2].data).toMatchObject({ id: renamed.id, name: 'Five off' });
    });

    it('is no longer valid once its redeem_by has passed', async () => {
      const redeemBy = new Date(tally.clock.now().getTime() + 3_600_000).toISOString();
      await api.post('/v1/coupons', { code: 'HOUR', percent_off: '10', duration: 'forever', redeem_by: redeemBy }).expect(200);
      await tally.settle();
      expect((await api.get('/v1/coupons/HOUR').expect(200)).body.valid).toBe(true);
      tally.clock.advance(3_600_001);
      expect((await api.get('/v1/coupons/HOUR').expect(200)).body.valid).toBe(false);
    });
  });
});
