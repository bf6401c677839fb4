import { TallyUnderTest } from './support/tally';
import { UnreachableMailerProcess } from './support/unreachable-mailer.process';

describe('parked commands', () => {
  let tally: TallyUnderTest;
  let api: ReturnType<TallyUnderTest['as']>;

  beforeAll(async () => ({ tally, api } = await TallyUnderTest.withTenant({ extraProcesses: [UnreachableMailerProcess] })));
  afterAll(() => tally.stop());

  it('lists a command that failed every attempt, dispatches it again on retry once the cause is fixed, and then no longer lists it', async () => {
    const customer = (await api.post('/v1/customers', { email: 'ada@example.com' }).expect(200)).body as { id: string };
    await tally.settle();

    const listed = (await api.get('/v1/admin/parked-commands?process=welcome_mail').expect(200)).body;
    expect(listed.data).toEqual([
      { id: expect.stringMatching(/^cmd_/), object: 'parked_command', process: 'welcome_mail', process_id: customer.id, type: 'SendWelcome', attempts: 5, last_error: 'connect ECONNREFUSED 10.0.0.25:25', created_at: expect.any(String) },
    ]);
    const [parked] = listed.data as { id: string }[];
    const gauge = async () => (await tally.http().get('/metrics').expect(200)).text.split('\n').filter((line) => line.startsWith('parked_commands{'));
    expect(await gauge()).toEqual(['parked_commands{process="welcome_mail",region="eu"} 1']);

    UnreachableMailerProcess.mailerUp = true;
    const retried = await api.post(`/v1/admin/parked-commands/${parked.id}/retry`).expect(200);
    expect(retried.body).toEqual(listed.data[0]);
    await tally.settle();

    expect(UnreachableMailerProcess.delivered).toEqual([customer.id]);
    expect((await api.get('/v1/admin/parked-commands').expect(200)).body.data).toEqual([]);
    expect(await gauge()).toEqual([]);
    const again = await api.post(`/v1/admin/parked-commands/${parked.id}/retry`).expect(404);
    expect(again.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(again.body.problem).toBe('parked_command.not_found');
  });

  it('does not show or retry another tenant’s parked command', async () => {
    UnreachableMailerProcess.mailerUp = false;
    await api.post('/v1/customers', { email: 'grace@example.com' }).expect(200);
    await tally.settle();
    const [parked] = (await api.get('/v1/admin/parked-commands').expect(200)).body.data as { id: string }[];
    expect(parked).toBeDefined();
    const other = tally.as((await tally.tenant('Globex', 'eu')).sandbox);
    expect((await other.get('/v1/admin/parked-commands').expect(200)).body.data).toEqual([]);
    expect((await other.post(`/v1/admin/parked-commands/${parked.id}/retry`).expect(404)).body.problem).toBe('parked_command.not_found');
    expect((await api.get('/v1/admin/parked-commands').expect(200)).body.data).toEqual([expect.objectContaining({ id: parked.id })]);
  });
});
