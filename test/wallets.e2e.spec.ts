import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import Big from 'big.js';
import fc from 'fast-check';
import type { RequestContext } from '@tally/cells';
import { PAYMENT_PROVIDER, WalletTopUpReaction, type SandboxPaymentProvider } from '@tally/payments';
import { reactionCommandId } from '@tally/runtime';
import { CustomerWallets, type WalletResource, type WalletTransactionResource } from '@tally/wallets';
import { listAll } from './support/list-all';
import { TallyUnderTest, type TestTenant } from './support/tally';

type Api = ReturnType<TallyUnderTest['as']>;

describe('wallets through the HTTP API', () => {
  let tally: TallyUnderTest;
  let acme: TestTenant;
  let api: Api;

  beforeAll(async () => {
    ({ tally, acme, api } = await TallyUnderTest.withTenant());
    await tally.liftRateLimits(acme.tenantId);
  });

  afterAll(() => tally.stop());

  const customer = async (extra: object = {}): Promise<string> => (await api.post('/v1/customers', { email: 'wallet@example.com', ...extra }).expect(200)).body.id;
  const wallet = async (customerId: string, body: object = {}): Promise<WalletResource> => (await api.post(`/v1/customers/${customerId}/wallets`, { currency: 'EUR', ...body }).expect(200)).body;
  const credit = async (walletId: string, amount: string, extra: object = {}): Promise<WalletTransactionResource> =>
    (await api.post(`/v1/wallets/${walletId}/credits`, { amount, reason: 'manual_topup', ...extra }).expect(200)).body;
  const debit = async (walletId: string, amount: string, extra: object = {}): Promise<WalletTransactionResource> =>
    (await api.post(`/v1/wallets/${walletId}/debits`, { amount, reason: 'manual', ...extra }).expect(200)).body;
  const balanceOf = async (walletId: string): Promise<string> => (await api.get(`/v1/wallets/${walletId}`).expect(200)).body.balance;
  const ledger = (walletId: string) => listAll<WalletTransactionResource>(api, `/v1/wallets/${walletId}/transactions?sort=sequence:asc`);
  const eventsOf = async (aggregateId: string): Promise<[string, string][]> => {
    await tally.settle();
    const events = await listAll<{ type: string; created_at: string }>(api, `/v1/events?aggregate_id=${aggregateId}&sort=created_at:asc`);
    return events.map((event) => [event.type, event.created_at]);
  };

  describe('POST /v1/customers/{id}/wallets', () => {
    it('creates an empty wallet, one per currency', async () => {
      const cus = await customer({ metadata: { crm: '7' } });
      const created = await api.post(`/v1/customers/${cus}/wallets`, { currency: 'EUR', drift_floor: '5.00', metadata: { plan: 'prepaid' } }).expect(200);
      expect(created.headers['etag']).toBe('W/"0"');
      const now = tally.clock.now().toISOString();
      expect(created.body).toEqual({
        id: expect.stringMatching(/^wal_[0-9A-Z]{26}$/),
        object: 'wallet',
        customer_id: cus,
        currency: 'EUR',
        balance: '0.00',
        auto_top_up: null,
        auto_top_up_status: { status: 'idle', last_error: null, retry_at: null },
        drift_floor: '5.00',
        below_drift_floor: false,
        metadata: { plan: 'prepaid' },
        last_transaction: null,
        test_clock: null,
        livemode: false,
        created_at: now,
        updated_at: now,
      });
      const second = await api.post(`/v1/customers/${cus}/wallets`, { currency: 'EUR' }).expect(409);
      expect(second.body.problem).toBe('wallet.already_exists');
      expect((await wallet(cus, { currency: 'JPY' })).balance).toBe('0');
      await tally.settle();
      expect((await api.get(`/v1/wallets/${created.body.id}`).expect(200)).body).toEqual(created.body);
    });

    it('two racing creations in one currency make one wallet', async () => {
      const cus = await customer();
      const answers = await Promise.all([1, 2, 3, 4].map(() => api.post(`/v1/customers/${cus}/wallets`, { currency: 'USD' })));
      expect(answers.map((answer) => answer.status).sort()).toEqual([200, 409, 409, 409]);
      await tally.settle();
      expect((await api.get(`/v1/wallets?customer_id=${cus}`).expect(200)).body.data).toHaveLength(1);
    });

    it('refuses bad input and writes nothing: a later valid request still creates the wallet', async () => {
      const cus = await customer();
      const refusals: [object, number, string][] = [
        [{ currency: 'EUR', drift_floor: '1.005' }, 400, 'wallet.invalid_amount'],
        [{ currency: 'EUR', drift_floor: '-1.00' }, 400, 'wallet.invalid_amount'],
        [{ currency: 'EUR', auto_top_up: { enabled: true, trigger_at: '5.00', amount: '0', payment_method_id: 'pm_1' } }, 400, 'wallet.invalid_amount'],
        [{ currency: 'eur' }, 400, 'money.unknown_currency'],
        [{ currency: 'EUR', colour: 'red' }, 400, 'request.invalid_body'],
        [{ currency: 'EUR', drift_floor: 5 }, 400, 'request.invalid_body'],
        [{ currency: 'EUR', auto_top_up: { enabled: true, trigger_at: '5.00', amount: '10.00', payment_method_id: 'pm_01NOTHERS' } }, 422, 'wallet.payment_method_not_attached'],
      ];
      for (const [body, status, problem] of refusals) {
        const response = await api.post(`/v1/customers/${cus}/wallets`, body).expect(status);
        expect([response.headers['content-type'], response.body.problem]).toEqual([expect.stringContaining('application/problem+json'), problem]);
      }
      expect((await api.post('/v1/customers/cus_01NOBODY/wallets', { currency: 'EUR' }).expect(404)).body.problem).toBe('customer.not_found');
      expect((await wallet(cus)).currency).toBe('EUR');
    });
  });

  describe('credits and debits', () => {
    it('posts each with the balance after it, refuses a debit below zero, and lists the ledger', async () => {
      const cus = await customer();
      const { id } = await wallet(cus);
      const first = await credit(id, '50.00', { description: 'Prepaid pack' });
      expect(first).toEqual({
        id: expect.stringMatching(/^wtx_/),
        object: 'wallet_transaction',
        wallet_id: id,
        customer_id: cus,
        currency: 'EUR',
        sequence: 1,
        type: 'credit',
        amount: '50.00',
        balance_after: '50.00',
        reason: 'manual_topup',
        source: { type: 'manual', id: null },
        external_id: null,
        description: 'Prepaid pack',
        status: 'posted',
        livemode: false,
        created_at: tally.clock.now().toISOString(),
      });
      expect((await debit(id, '20.01')).balance_after).toBe('29.99');
      const refused = await api.post(`/v1/wallets/${id}/debits`, { amount: '30.00', reason: 'manual' }).expect(409);
      expect(refused.body.problem).toBe('wallet.insufficient_balance');
      expect((await debit(id, '29.99', { reason: 'correction' })).balance_after).toBe('0.00');
      await tally.settle();
      expect((await ledger(id)).map((t) => [t.sequence, t.type, t.amount, t.balance_after, t.reason])).toEqual([
        [1, 'credit', '50.00', '50.00', 'manual_topup'],
        [2, 'debit', '20.01', '29.99', 'manual'],
        [3, 'debit', '29.99', '0.00', 'correction'],
      ]);
      const page = (await api.get(`/v1/wallets/${id}/transactions?limit=2`).expect(200)).body;
      expect([page.data.map((t: WalletTransactionResource) => t.sequence), page.has_more]).toEqual([[3, 2], true]);
      const rest = (await api.get(`/v1/wallets/${id}/transactions?limit=2&cursor=${page.next_cursor}`).expect(200)).body;
      expect(rest.data.map((t: WalletTransactionResource) => t.sequence)).toEqual([1]);
      expect((await api.get(`/v1/wallets/${id}/transactions?type=debit&reason=correction`).expect(200)).body.data.map((t: WalletTransactionResource) => t.amount)).toEqual(['29.99']);
      expect((await api.get(`/v1/wallets/${id}/transactions?reason=bogus`).expect(400)).body.problem).toBe('request.invalid_parameter');
      expect((await api.get('/v1/wallets/wal_01NOWALLET/transactions').expect(404)).body.problem).toBe('wallet.not_found');
      expect(await eventsOf(id)).toEqual([
        ['wallet.credited', tally.clock.now().toISOString()],
        ['wallet.debited', tally.clock.now().toISOString()],
        ['wallet.debited', tally.clock.now().toISOString()],
      ]);
    });

    it('a replayed external_id answers the original transaction and credits once; another amount is a conflict', async () => {
      const { id } = await wallet(await customer());
      const original = await credit(id, '10.00', { external_id: 'crm-1' });
      const replays = await Promise.all([1, 2, 3].map(() => credit(id, '10.00', { external_id: 'crm-1' })));
      expect(replays).toEqual([original, original, original]);
      const conflict = await api.post(`/v1/wallets/${id}/credits`, { amount: '11.00', reason: 'manual_topup', external_id: 'crm-1' }).expect(409);
      expect(conflict.body.problem).toBe('wallet.external_id_conflict');
      const debitConflict = await api.post(`/v1/wallets/${id}/debits`, { amount: '10.00', reason: 'manual', external_id: 'crm-1' }).expect(409);
      expect(debitConflict.body.problem).toBe('wallet.external_id_conflict');
      // Read straight after the writes, without waiting for the worker: the caller reads what it wrote.
      expect(await balanceOf(id)).toBe('10.00');
      expect((await ledger(id)).map((t) => [t.id, t.external_id])).toEqual([[original.id, 'crm-1']]);
    });

    it('an Idempotency-Key replays the first answer and posts once', async () => {
      const { id } = await wallet(await customer());
      const key = randomUUID();
      const send = () => api.post(`/v1/wallets/${id}/credits`, { amount: '4.00', reason: 'promotional' }).set('Idempotency-Key', key).expect(200);
      const first = (await send()).body;
      expect((await send()).body).toEqual(first);
      expect(await balanceOf(id)).toBe('4.00');
    });

    it('refuses bad amounts, reasons and fields with a stable code, and writes nothing', async () => {
      const { id } = await wallet(await customer({}), { currency: 'JPY' });
      const refusals: [string, object, number, string][] = [
        ['credits', { amount: '0', reason: 'manual_topup' }, 400, 'wallet.invalid_amount'],
        ['credits', { amount: '-5', reason: 'manual_topup' }, 400, 'wallet.invalid_amount'],
        ['credits', { amount: '1.5', reason: 'manual_topup' }, 400, 'wallet.invalid_amount'],
        ['credits', { amount: '1e3', reason: 'manual_topup' }, 400, 'wallet.invalid_amount'],
        ['credits', { amount: 100, reason: 'manual_topup' }, 400, 'request.invalid_body'],
        ['credits', { amount: '100' }, 400, 'request.invalid_body'],
        ['credits', { amount: '100', reason: 'gift' }, 400, 'request.invalid_body'],
        ['credits', { amount: '100', reason: 'manual_topup', note: 'x' }, 400, 'request.invalid_body'],
        ['debits', { amount: '100', reason: 'invoice_settlement' }, 400, 'request.invalid_body'],
        ['debits', { amount: '0.5', reason: 'manual' }, 400, 'wallet.invalid_amount'],
        ['debits', { amount: '1', reason: 'manual' }, 409, 'wallet.insufficient_balance'],
      ];
      for (const [route, body, status, problem] of refusals) {
        const response = await api.post(`/v1/wallets/${id}/${route}`, body).expect(status);
        expect([route, body, response.body.problem]).toEqual([route, body, problem]);
      }
      expect((await api.post('/v1/wallets/wal_01NOWALLET/credits', { amount: '1', reason: 'manual_topup' }).expect(404)).body.problem).toBe('wallet.not_found');
      await tally.settle();
      expect(await ledger(id)).toEqual([]);
      expect(await balanceOf(id)).toBe('0');
    });
  });

  describe('POST /v1/customers/{id}/credit-grants', () => {
    it('credits a promotional amount to the wallet in the currency, created when missing, and answers the transaction', async () => {
      const cus = await customer();
      const grant = (await api.post(`/v1/customers/${cus}/credit-grants`, { currency: 'GBP', amount: '15.00', description: 'Welcome credit', external_id: 'welcome' }).expect(200)).body;
      expect(grant).toMatchObject({ object: 'wallet_transaction', type: 'credit', amount: '15.00', balance_after: '15.00', reason: 'promotional', source: { type: 'grant', id: null }, external_id: 'welcome', description: 'Welcome credit' });
      const again = (await api.post(`/v1/customers/${cus}/credit-grants`, { currency: 'GBP', amount: '15.00', external_id: 'welcome' }).expect(200)).body;
      expect(again).toEqual(grant);
      await tally.settle();
      const wallets = (await api.get(`/v1/wallets?customer_id=${cus}`).expect(200)).body.data;
      expect(wallets.map((w: WalletResource) => [w.id, w.currency, w.balance])).toEqual([[grant.wallet_id, 'GBP', '15.00']]);
      expect((await api.post(`/v1/customers/${cus}/credit-grants`, { currency: 'USD', amount: '0.001' }).expect(400)).body.problem).toBe('wallet.invalid_amount');
      expect((await api.post('/v1/customers/cus_01NOBODY/credit-grants', { currency: 'USD', amount: '1.00' }).expect(404)).body.problem).toBe('customer.not_found');
      await tally.settle();
      expect((await api.get(`/v1/wallets?customer_id=${cus}&currency=USD`).expect(200)).body.data).toEqual([]);
    });
  });

  describe('reads and updates', () => {
    it('retrieves a wallet as it was with as_of, and lists by customer and currency', async () => {
      const cus = await customer();
      const eur = await wallet(cus);
      const before = tally.clock.now().toISOString();
      tally.clock.advance(60_000);
      await credit(eur.id, '7.00');
      await tally.settle();
      expect((await api.get(`/v1/wallets/${eur.id}?as_of=${before}`).expect(200)).body.balance).toBe('0.00');
      expect((await api.get(`/v1/wallets/${eur.id}`).expect(200)).body).toMatchObject({ balance: '7.00', last_transaction: { amount: '7.00', sequence: 1 } });
      const usd = await wallet(cus, { currency: 'USD' });
      await tally.settle();
      const listed = (await api.get(`/v1/wallets?customer_id=${cus}&sort=created_at:asc`).expect(200)).body.data.map((w: WalletResource) => w.id);
      expect(listed).toEqual([eur.id, usd.id]);
      expect((await api.get(`/v1/wallets?customer_id=${cus}&currency=USD`).expect(200)).body.data.map((w: WalletResource) => w.id)).toEqual([usd.id]);
      expect((await api.get(`/v1/wallets?sort=balance:asc`).expect(400)).body.problem).toBe('request.invalid_parameter');
      expect((await api.get('/v1/wallets/wal_01NOWALLET').expect(404)).body.problem).toBe('wallet.not_found');
    });

    it('updates the drift floor, the automatic top-up and metadata; refuses another customer’s payment method; honours If-Match', async () => {
      const cus = await customer();
      const other = await customer();
      const card = (await api.post(`/v1/customers/${cus}/payment-methods`, { type: 'card', token: 'tok_visa' }).expect(200)).body.id;
      const theirs = (await api.post(`/v1/customers/${other}/payment-methods`, { type: 'card', token: 'tok_visa' }).expect(200)).body.id;
      const { id } = await wallet(cus, { metadata: { a: '1' } });
      const autoTopUp = { enabled: true, trigger_at: '10.00', amount: '25.00', payment_method_id: card };
      const updated = await api.patch(`/v1/wallets/${id}`, { auto_top_up: autoTopUp, drift_floor: '2.50', metadata: { a: '', b: '2' } }).expect(200);
      // The new floor is above the empty balance: the update crossed it.
      expect(updated.body).toMatchObject({ auto_top_up: autoTopUp, drift_floor: '2.50', below_drift_floor: true, metadata: { b: '2' } });
      expect(updated.headers['etag']).toBe('W/"2"');
      const refused = await api.patch(`/v1/wallets/${id}`, { auto_top_up: { ...autoTopUp, payment_method_id: theirs } }).expect(422);
      expect(refused.body.problem).toBe('wallet.payment_method_not_attached');
      await api.patch(`/v1/wallets/${id}`, { drift_floor: null }).set('If-Match', 'W/"0"').expect(412);
      const cleared = (await api.patch(`/v1/wallets/${id}`, { drift_floor: null, auto_top_up: null }).set('If-Match', 'W/"2"').expect(200)).body;
      expect([cleared.drift_floor, cleared.auto_top_up, cleared.below_drift_floor]).toEqual([null, null, false]);
      expect((await api.patch('/v1/wallets/wal_01NOWALLET', { metadata: { a: '1' } }).expect(404)).body.problem).toBe('wallet.not_found');
    });
  });

  describe('automatic top-up and the drift floor, on a test clock', () => {
    const start = '2026-03-01T00:00:00.000Z';
    const onClock = async () => {
      const clock = (await api.post('/v1/test-clocks', { frozen_time: start }).expect(200)).body.id as string;
      const cus = await customer({ test_clock: clock });
      const method = async (token: string): Promise<string> => (await api.post(`/v1/customers/${cus}/payment-methods`, { type: 'card', token }).expect(200)).body.id;
      return { clock, cus, method };
    };

    it('a debit to at or below the trigger charges the card once, amount × k in one charge, and credits the wallet', async () => {
      const { cus, method } = await onClock();
      const card = await method('tok_visa');
      const { id } = await wallet(cus, { auto_top_up: { enabled: true, trigger_at: '50.00', amount: '20.00', payment_method_id: card } });
      await credit(id, '60.00');
      await debit(id, '55.00');
      // 5.00 left, 45.00 short of the trigger: three increments of 20.00 in one charge.
      expect(await eventsOf(id)).toEqual([
        ['wallet.credited', start],
        ['wallet.debited', start],
        ['wallet.credited', start],
        ['wallet.auto_topup_succeeded', start],
      ]);
      const topUp = (await ledger(id))[2];
      expect(topUp).toMatchObject({ type: 'credit', amount: '60.00', balance_after: '65.00', reason: 'auto_topup', source: { type: 'top_up', id: topUp.id } });
      expect((await api.get(`/v1/wallets/${id}`).expect(200)).body).toMatchObject({ balance: '65.00', auto_top_up_status: { status: 'idle', last_error: null, retry_at: null } });
    });

    it('charges once per trigger though its event comes again, as after a crash before the reaction’s checkpoint', async () => {
      const { cus, method } = await onClock();
      const card = await method('tok_visa');
      const { id } = await wallet(cus, { auto_top_up: { enabled: true, trigger_at: '10.00', amount: '20.00', payment_method_id: card } });
      await credit(id, '15.00');
      await debit(id, '10.00');
      await tally.settle();
      const triggered = (await tally.cells.cell('eu').events.readStream(`wallet-${id}`)).find((event) => event.type === 'WalletAutoTopUpTriggered')!;
      const reaction = tally.app.get(WalletTopUpReaction);
      const { command } = reaction.commandOf(triggered)!;
      const redelivered = (commandId: string): RequestContext => ({
        tenantId: acme.tenantId, environment: 'sandbox', region: 'eu', actor: `reaction:${reaction.name}`, requestId: null,
        correlationId: triggered.metadata.correlation_id, causationId: triggered.id, commandId, clockId: triggered.metadata.clock_id,
      });
      // The same delivery again, then one under another command id: the provider's key and the wallet's pending top-up both hold.
      await reaction.dispatch(command, redelivered(reactionCommandId(reaction.name, triggered.id)));
      await reaction.dispatch(command, redelivered('cmd_another_delivery'));
      await tally.settle();
      const charges = (await tally.app.get<SandboxPaymentProvider>(PAYMENT_PROVIDER).charges()).filter((charge) => charge.idempotencyKey === `wallet_top_up:${command.data.top_up_id}`);
      expect(charges.map((charge) => [charge.amount, charge.currency, charge.status])).toEqual([['20.00', 'EUR', 'succeeded']]);
      expect((await ledger(id)).filter((transaction) => transaction.reason === 'auto_topup').map((transaction) => transaction.id)).toEqual([command.data.top_up_id]);
      expect(await balanceOf(id)).toBe('25.00');
    });

    it('a declined top-up backs off an hour on the wallet’s clock and never storms; the retry after it tops up', async () => {
      const { clock, cus, method } = await onClock();
      const declining = await method('tok_card_declined');
      const card = await method('tok_visa');
      const rule = { enabled: true, trigger_at: '10.00', amount: '20.00', payment_method_id: declining };
      const { id } = await wallet(cus, { auto_top_up: rule });
      await credit(id, '15.00');
      await debit(id, '10.00');
      expect(await eventsOf(id)).toEqual([
        ['wallet.credited', start],
        ['wallet.debited', start],
        ['wallet.auto_topup_failed', start],
      ]);
      const retryAt = '2026-03-01T01:00:00.000Z';
      expect((await api.get(`/v1/wallets/${id}`).expect(200)).body.auto_top_up_status).toEqual({ status: 'backing_off', last_error: { code: 'card_declined', message: 'The card was declined.' }, retry_at: retryAt });
      // More debits during the back-off charge nothing.
      await debit(id, '1.00');
      await debit(id, '1.00');
      await api.patch(`/v1/wallets/${id}`, { auto_top_up: { ...rule, payment_method_id: card } }).expect(200);
      expect((await eventsOf(id)).slice(3)).toEqual([
        ['wallet.debited', start],
        ['wallet.debited', start],
      ]);
      await api.post(`/v1/test-clocks/${clock}/advance`, { frozen_time: '2026-03-01T02:00:00.000Z' }).expect(200);
      expect((await eventsOf(id)).slice(5)).toEqual([
        ['wallet.credited', retryAt],
        ['wallet.auto_topup_succeeded', retryAt],
      ]);
      expect(await balanceOf(id)).toBe('23.00');
    });

    it('fires wallet.below_drift_floor once per crossing: latched below the floor, re-armed at or above it', async () => {
      const { id } = await wallet(await customer(), { drift_floor: '10.00' });
      await credit(id, '20.00');
      await debit(id, '15.00');
      await debit(id, '1.00');
      expect((await api.get(`/v1/wallets/${id}`).expect(200)).body.below_drift_floor).toBe(true);
      await credit(id, '6.00');
      expect((await api.get(`/v1/wallets/${id}`).expect(200)).body.below_drift_floor).toBe(false);
      await debit(id, '5.00');
      expect((await eventsOf(id)).map(([type]) => type)).toEqual([
        'wallet.credited',
        'wallet.debited',
        'wallet.below_drift_floor',
        'wallet.debited',
        'wallet.credited',
        'wallet.debited',
        'wallet.below_drift_floor',
      ]);
    });
  });

  describe('tenants and environments', () => {
    it('answers 404 for another tenant’s wallet, or the same tenant’s in the other environment, and posts nothing to it', async () => {
      const cus = await customer();
      const { id } = await wallet(cus);
      await credit(id, '9.00');
      const other = tally.as((await tally.tenant('Globex')).sandbox);
      const live = tally.as(acme.live);
      for (const intruder of [other, live]) {
        await intruder.get(`/v1/wallets/${id}`).expect(404);
        expect((await intruder.post(`/v1/wallets/${id}/debits`, { amount: '9.00', reason: 'manual' }).expect(404)).body.problem).toBe('wallet.not_found');
        expect((await intruder.patch(`/v1/wallets/${id}`, { metadata: { a: '1' } }).expect(404)).body.problem).toBe('wallet.not_found');
        expect((await intruder.post(`/v1/customers/${cus}/wallets`, { currency: 'USD' }).expect(404)).body.problem).toBe('customer.not_found');
        expect((await intruder.post(`/v1/customers/${cus}/credit-grants`, { currency: 'EUR', amount: '1.00' }).expect(404)).body.problem).toBe('customer.not_found');
        expect((await intruder.get(`/v1/wallets?customer_id=${cus}`).expect(200)).body.data).toEqual([]);
      }
      expect(await balanceOf(id)).toBe('9.00');
    });
  });

  describe('API versions', () => {
    it('wallet routes answer 404 before 2025-10-01, and are served from it', async () => {
      const cus = await customer();
      const { id } = await wallet(cus);
      const routes: [keyof Api, string, object?][] = [
        ['post', `/v1/customers/${cus}/wallets`, { currency: 'USD' }],
        ['post', `/v1/customers/${cus}/credit-grants`, { currency: 'EUR', amount: '1.00' }],
        ['get', `/v1/wallets/${id}`],
        ['get', '/v1/wallets'],
        ['patch', `/v1/wallets/${id}`, { metadata: { a: '1' } }],
        ['post', `/v1/wallets/${id}/credits`, { amount: '1.00', reason: 'manual_topup' }],
        ['post', `/v1/wallets/${id}/debits`, { amount: '1.00', reason: 'manual' }],
        ['get', `/v1/wallets/${id}/transactions`],
      ];
      for (const version of ['2024-10-01', '2025-04-01']) {
        for (const [method, path, body] of routes) {
          const response = await (api[method] as (path: string, body?: object) => ReturnType<Api['get']>)(path, body).set('Service-Version', version).expect(404);
          expect([method, path, response.body.problem]).toEqual([method, path, 'route.not_found']);
        }
      }
      // Not there at all: no other check of the request (its idempotency key, its query) answers first.
      const badKey = await api.post(`/v1/wallets/${id}/credits`, { amount: '1.00', reason: 'manual_topup' }).set('Service-Version', '2024-10-01').set('Idempotency-Key', 'not-a-uuid').expect(404);
      const unknownQuery = await api.get('/v1/wallets?colour=blue').set('Service-Version', '2024-10-01').expect(404);
      expect([badKey.body.problem, unknownQuery.body.problem]).toEqual(['route.not_found', 'route.not_found']);
      await tally.settle();
      expect(await balanceOf(id)).toBe('0.00');
      const document = (await api.get('/openapi.json?version=2025-04-01').expect(200)).body as { paths: Record<string, unknown> };
      expect(Object.keys(document.paths).filter((path) => path.includes('wallet') || path.includes('credit-grants'))).toEqual([]);
      expect((await api.get(`/v1/wallets/${id}`).set('Service-Version', '2025-10-01').expect(200)).body.id).toBe(id);
    });

    it('delivers wallet events only to endpoints pinned at 2025-10-01 or later', async () => {
      const pinned = async (api_version: string, events: string[]) => (await api.post('/v1/admin/webhook-endpoints', { url: 'https://example.com/hooks', events, api_version }).expect(200)).body.id;
      // An endpoint pinned before wallets cannot name their events (versions.e2e.spec.ts), only everything.
      const old = await pinned('2025-04-01', ['*']);
      const current = await pinned('2025-10-01', ['wallet.*', 'customer.created']);
      const cus = await customer();
      const { id } = await wallet(cus);
      await credit(id, '3.00');
      await tally.settle();
      const delivered = async (endpoint: string) =>
        (await listAll<{ event_type: string; aggregate_id: string }>(api, `/v1/admin/webhook-endpoints/${endpoint}/deliveries`)).filter((d) => d.aggregate_id === id || d.aggregate_id === cus).map((d) => d.event_type);
      expect(await delivered(old)).toEqual(['customer.created']);
      expect((await delivered(current)).sort()).toEqual(['customer.created', 'wallet.credited']);
    });
  });

  describe('concurrency', () => {
    /** A posting as the property draws it: its direction and its amount in cents (0.01 to 20.00). */
    const posting = fc.record({ type: fc.constantFrom('credit' as const, 'debit' as const), cents: fc.integer({ min: 1, max: 2_000 }) });

    it('keeps the balance equal to the sum of its posted transactions after random concurrent credits and debits', async () => {
      await fc.assert(
        fc.asyncProperty(fc.array(posting, { minLength: 1, maxLength: 40 }), async (postings) => {
          const { id } = await wallet(await customer());
          const answers = await Promise.all(
            postings.map(({ type, cents }) => {
              const amount = new Big(cents).div(100).toFixed(2);
              return type === 'credit' ? api.post(`/v1/wallets/${id}/credits`, { amount, reason: 'manual_topup' }) : api.post(`/v1/wallets/${id}/debits`, { amount, reason: 'manual' });
            }),
          );
          // A debit the balance could not cover is refused and posts nothing; the postings to one wallet take turns, so none is told to retry.
          expect(answers.filter((a) => a.status !== 200).map((a) => a.body.problem).filter((p) => p !== 'wallet.insufficient_balance')).toEqual([]);
          await tally.settle();
          const posted = await ledger(id);
          const sum = posted.reduce((total, t) => (t.type === 'credit' ? total.plus(t.amount) : total.minus(t.amount)), new Big(0));
          expect([posted.length, await balanceOf(id)]).toEqual([answers.filter((a) => a.status === 200).length, sum.toFixed(2)]);
          expect(posted.map((t) => t.sequence)).toEqual(posted.map((_, i) => i + 1));
          expect(posted.every((t, i) => new Big(t.balance_after).eq((i === 0 ? new Big(0) : new Big(posted[i - 1].balance_after))[t.type === 'credit' ? 'plus' : 'minus'](t.amount)))).toBe(true);
          expect(posted.every((t) => new Big(t.balance_after).gte(0))).toBe(true);
        }),
        { numRuns: 8, seed: 30 },
      );
    }, 120_000);

    it('credits another context posts beside the API’s debits meet at the stream’s revision and are decided again, never applied twice', async () => {
      const cus = await customer();
      const { id } = await wallet(cus);
      const wallets = tally.app.get(CustomerWallets);
      const context: RequestContext = { tenantId: acme.tenantId, environment: 'sandbox', region: 'eu', actor: 'reaction:test', requestId: null, correlationId: null, causationId: null };
      await credit(id, '5.00');
      const credits = Array.from({ length: 10 }, (_, i) =>
        wallets.credit(context, { customer_id: cus, currency: 'EUR', amount: '1.00', reason: 'refund', source: { type: 'refund', id: `rfd_${i}` }, transaction_id: `wtx_refund_${i}`, description: null }),
      );
      const debits = Array.from({ length: 10 }, () => api.post(`/v1/wallets/${id}/debits`, { amount: '0.50', reason: 'manual' }));
      const [credited, debited] = await Promise.all([Promise.allSettled(credits), Promise.all(debits)]);
      expect(credited.filter((outcome) => outcome.status === 'rejected')).toEqual([]);
      // The same credits again (a redelivery): each transaction id posts once.
      await Promise.all(Array.from({ length: 10 }, (_, i) => wallets.credit(context, { customer_id: cus, currency: 'EUR', amount: '1.00', reason: 'refund', source: { type: 'refund', id: `rfd_${i}` }, transaction_id: `wtx_refund_${i}`, description: null })));
      await tally.settle();
      const posted = await ledger(id);
      const debitedCount = debited.filter((a) => a.status === 200).length;
      expect(posted.filter((t) => t.reason === 'refund').map((t) => t.id).sort()).toEqual(Array.from({ length: 10 }, (_, i) => `wtx_refund_${i}`).sort());
      expect(await balanceOf(id)).toBe(new Big(15).minus(new Big('0.50').times(debitedCount)).toFixed(2));
      expect(posted.map((t) => t.sequence)).toEqual(posted.map((_, i) => i + 1));
    });

    it('a settlement’s partial debit takes what the wallet holds, once per transaction id, and is refused at zero', async () => {
      const { id } = await wallet(await customer());
      await credit(id, '3.00');
      const wallets = tally.app.get(CustomerWallets);
      const context: RequestContext = { tenantId: acme.tenantId, environment: 'sandbox', region: 'eu', actor: 'reaction:test', requestId: null, correlationId: null, causationId: null };
      const settle = (transaction_id: string) =>
        wallets.debit(context, { wallet_id: id, transaction_id, amount: '5.00', reason: 'invoice_settlement', source: { type: 'invoice', id: 'inv_1' }, external_id: null, description: null, partial: true });
      const taken = await settle('wtx_settle_1');
      expect([taken.amount, taken.balance_after, taken.reason]).toEqual(['3.00', '0.00', 'invoice_settlement']);
      expect(await settle('wtx_settle_1')).toEqual(taken);
      await expect(settle('wtx_settle_2')).rejects.toMatchObject({ code: 'wallet.insufficient_balance' });
      expect(await balanceOf(id)).toBe('0.00');
    });

    it('a burst on one wallet commits as a group: fewer appends than debits, each event with its own request, a refusal only its own', async () => {
      const { id } = await wallet(await customer());
      await credit(id, '10.00', { external_id: 'burst-topup' });
      const events = tally.cells.cell('eu').events;
      const appendNow = events.append.bind(events);
      // A slow store, so the burst's debits arrive while a turn is appending.
      const append = jest.spyOn(events, 'append').mockImplementation(async (...args) => {
        await sleep(50);
        return appendNow(...args);
      });
      const answers = await Promise.all([
        ...Array.from({ length: 11 }, () => api.post(`/v1/wallets/${id}/debits`, { amount: '1.00', reason: 'manual' })),
        api.post(`/v1/wallets/${id}/credits`, { amount: '10.00', reason: 'manual_topup', external_id: 'burst-topup' }),
      ]);
      const appends = append.mock.calls.filter(([stream]) => stream === `wallet-${id}`).length;
      append.mockRestore();
      const debits = answers.slice(0, 11);
      expect(debits.map((a) => a.body.problem ?? 'posted').sort()).toEqual([...Array(10).fill('posted'), 'wallet.insufficient_balance'].sort());
      // The replayed external_id answers the original transaction, wherever it fell in a batch.
      expect(answers[11].body).toMatchObject({ type: 'credit', amount: '10.00', balance_after: '10.00' });
      expect(appends).toBeLessThan(10);
      const stored = (await events.readStream(`wallet-${id}`)).filter((event) => event.type === 'WalletDebited');
      const posted = new Map(debits.filter((a) => a.status === 200).map((a) => [a.body.id as string, a.headers['request-id']]));
      expect(stored.map((event) => [(event.data as { transaction: { transaction_id: string } }).transaction.transaction_id, event.metadata.request_id]).sort()).toEqual([...posted].sort());
      expect(new Set(stored.map((event) => event.metadata.request_id)).size).toBe(10);
    });

    it('N concurrent debits never overdraw', async () => {
      const { id } = await wallet(await customer());
      await credit(id, '10.00');
      const answers = await Promise.all(Array.from({ length: 25 }, () => api.post(`/v1/wallets/${id}/debits`, { amount: '1.00', reason: 'manual' })));
      expect(answers.map((a) => a.body.problem ?? 'posted').sort()).toEqual([...Array(10).fill('posted'), ...Array(15).fill('wallet.insufficient_balance')].sort());
      await tally.settle();
      expect(await balanceOf(id)).toBe('0.00');
      expect((await ledger(id)).map((t) => t.balance_after)).toEqual(['10.00', '9.00', '8.00', '7.00', '6.00', '5.00', '4.00', '3.00', '2.00', '1.00', '0.00']);
    });
  });
});
