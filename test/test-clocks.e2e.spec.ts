import { TallyUnderTest, type TestTenant } from './support/tally';
import { CHAIN_LINKS, TimerChainProcess } from './support/timer-chain.process';

const T0 = '2026-01-31T00:00:00.000Z';
const day = (n: number, hours = 0) => new Date(Date.parse(T0) + n * 86_400_000 + hours * 3_600_000).toISOString();

describe('sandbox test clocks', () => {
  let tally: TallyUnderTest;
  let acme: TestTenant;
  let api: ReturnType<TallyUnderTest['as']>;

  beforeAll(async () => ({ tally, acme, api } = await TallyUnderTest.withTenant({ extraProcesses: [TimerChainProcess] })));
  afterAll(() => tally.stop());

  const createClock = async (frozen_time = T0) => (await api.post('/v1/test-clocks', { frozen_time, name: 'Chain' }).expect(200)).body as { id: string };
  const customerOn = async (clock: string) => (await api.post('/v1/customers', { email: 'clocked@example.com', test_clock: clock }).expect(200)).body as { id: string; created_at: string; test_clock: string };
  /** The public events of an aggregate since `after` (a sequence number), oldest first. */
  const eventsOf = async (aggregateId: string) =>
    ((await api.get(`/v1/events?aggregate_id=${aggregateId}&sort=created_at:asc&limit=100`).expect(200)).body.data as { type: string; created_at: string; data: { metadata: Record<string, string>; updated_at: string } }[]);
  const advance = async (clock: string, frozen_time: string) => {
    const started = await api.post(`/v1/test-clocks/${clock}/advance`, { frozen_time }).expect(200);
    expect(started.body).toMatchObject({ id: clock, status: 'advancing', frozen_time });
    await tally.settle();
    expect((await api.get(`/v1/test-clocks/${clock}`).expect(200)).body).toMatchObject({ status: 'ready', frozen_time });
  };

  it('creates, retrieves and lists clocks in Stripe’s shape', async () => {
    const clock = await createClock();
    expect(clock).toEqual({ id: expect.stringMatching(/^clock_[0-9A-Z]{26}$/), object: 'test_clock', name: 'Chain', frozen_time: T0, status: 'ready', livemode: false, created_at: tally.clock.now().toISOString(), updated_at: tally.clock.now().toISOString() });
    await tally.settle();
    expect((await api.get(`/v1/test-clocks/${clock.id}`).expect(200)).body).toEqual(clock);
    expect((await api.get('/v1/test-clocks').expect(200)).body.data.map((c: { id: string }) => c.id)).toContain(clock.id);
  });

  it('puts a customer on the clock: its events happen at the clock’s time', async () => {
    const clock = await createClock();
    const customer = await customerOn(clock.id);
    expect(customer).toMatchObject({ test_clock: clock.id, created_at: T0 });
    const updated = await api.patch(`/v1/customers/${customer.id}`, { name: 'Ada' }).expect(200);
    expect(updated.body.updated_at).toBe(T0);
  });

  it('fires the clock’s timers in due order on an advance, including timers the firings set, each at its own time, and no later ones', async () => {
    const clock = await createClock();
    const customer = await customerOn(clock.id);
    await tally.settle();
    const before = await eventsOf(customer.id);
    expect(before.map((e) => e.type)).toEqual(['customer.created']);

    await advance(clock.id, day(3, 12));

    const events = (await eventsOf(customer.id)).slice(before.length);
    expect(events.map((e) => [e.type, e.created_at, e.data.metadata.link])).toEqual([
      ['customer.updated', day(1), '1'],
      ['customer.updated', day(2), '2'],
      ['customer.updated', day(3), '3'],
    ]);
  });

  it('never fires a test clock’s timers from the system clock', async () => {
    const clock = await createClock();
    const customer = await customerOn(clock.id);
    await tally.settle();
    tally.clock.set('2027-01-01T00:00:00.000Z');
    await tally.worker.fireDueTimers();
    await tally.settle();
    expect((await eventsOf(customer.id)).map((e) => e.type)).toEqual(['customer.created']);
    await advance(clock.id, day(30));
    expect((await eventsOf(customer.id)).map((e) => e.data.metadata.link ?? null)).toEqual([null, ...Array.from({ length: CHAIN_LINKS }, (_, i) => String(i + 1))]);
  }, 30_000);

  it('refuses to go backwards, to stand still, or to leap more than two years, and changes nothing', async () => {
    const clock = await createClock();
    for (const [frozen_time, problem] of [
      [day(-1), 'test_clock.advance_backwards'],
      [T0, 'test_clock.advance_backwards'],
      ['2028-06-01T00:00:00Z', 'test_clock.advance_too_far'],
    ]) {
      const head = await tally.head();
      const response = await api.post(`/v1/test-clocks/${clock.id}/advance`, { frozen_time }).expect(400);
      expect(response.body).toMatchObject({ problem, errors: [{ field: 'frozen_time' }] });
      expect(await tally.head()).toBe(head);
    }
  });

  it('is a sandbox tool: live keys are refused', async () => {
    const live = tally.as(acme.live);
    expect((await live.post('/v1/test-clocks', { frozen_time: T0 }).expect(400)).body.problem).toBe('test_clock.livemode');
    expect((await live.get('/v1/test-clocks').expect(400)).body.problem).toBe('test_clock.livemode');
    const clock = await createClock();
    expect((await live.post('/v1/customers', { test_clock: clock.id }).expect(400)).body.problem).toBe('test_clock.livemode');
  });

  it('refuses a customer on an unknown or another tenant’s clock', async () => {
    expect((await api.post('/v1/customers', { test_clock: 'clock_00000000000000000000000000' }).expect(404)).body.problem).toBe('test_clock.not_found');
    const other = await tally.tenant('Other', 'eu');
    const theirs = (await tally.as(other.sandbox).post('/v1/test-clocks', { frozen_time: T0 }).expect(200)).body as { id: string };
    expect((await api.post('/v1/customers', { test_clock: theirs.id }).expect(404)).body.problem).toBe('test_clock.not_found');
    expect((await api.get(`/v1/test-clocks/${theirs.id}`).expect(404)).body.problem).toBe('test_clock.not_found');
  });

  it('deletes the clock and the customers on it, as Stripe does', async () => {
    const clock = await createClock();
    const customer = await customerOn(clock.id);
    const elsewhere = (await api.post('/v1/customers', { email: 'free@example.com' }).expect(200)).body as { id: string };
    expect((await api.delete(`/v1/test-clocks/${clock.id}`).expect(200)).body).toEqual({ id: clock.id, object: 'test_clock', deleted: true });
    await tally.settle();
    expect((await api.get(`/v1/test-clocks/${clock.id}`).expect(404)).body.problem).toBe('test_clock.not_found');
    expect((await api.get(`/v1/customers/${customer.id}`).expect(404)).body.problem).toBe('customer.not_found');
    await api.get(`/v1/customers/${elsewhere.id}`).expect(200);
    expect((await eventsOf(customer.id)).map((e) => e.type).slice(-1)).toEqual(['customer.deleted']);
    expect((await api.delete(`/v1/test-clocks/${clock.id}`).expect(404)).body.problem).toBe('test_clock.not_found');
  });
});
