import { createHash } from 'node:crypto';
import type { AttachRequest, ProviderCardDetails } from '../payment-provider.port';
import { SandboxPaymentProvider } from './sandbox-provider';
import { InMemorySandboxRecord } from './sandbox-record';
import { TEST_TOKENS } from './test-tokens';

const NOW = '2026-05-14T09:30:00Z';
const attach = (provider: SandboxPaymentProvider, token: string, type: AttachRequest['type'], now = NOW) =>
  provider.attach({ type, token, now, idempotencyKey: `attach-${token}-${type}-${now}` });

const card = (brand: string, last4: string, funding: ProviderCardDetails['funding'] = 'credit'): ProviderCardDetails => ({
  brand,
  last4,
  exp_month: 12,
  exp_year: 2034,
  country: 'US',
  funding,
});

describe('attaching a sandbox test token', () => {
  it.each([
    ['tok_visa', card('visa', '4242')],
    ['tok_mastercard', card('mastercard', '4444')],
    ['tok_amex', card('amex', '8431')],
    ['tok_visa_debit', card('visa', '5556', 'debit')],
    ['tok_card_declined', card('visa', '0002')],
    ['tok_insufficient_funds', card('visa', '9995')],
    ['tok_processing_error', card('visa', '0119')],
    ['tok_3ds_required', card('visa', '3155')],
    ['tok_3ds_sdk', card('visa', '3184')],
    ['tok_chargeback', card('visa', '0259')],
  ])('%s attaches as an unverified card', async (token, details) => {
    const outcome = await attach(new SandboxPaymentProvider(), token, 'card');
    expect(outcome).toEqual({
      ok: true,
      providerRef: expect.stringMatching(/^sbx_pm_[0-9a-f]{24}$/),
      card: details,
      bank_account: null,
      wallet: null,
      verified: false,
    });
  });

  it('tok_bank_account attaches as a new, unverified bank account', async () => {
    const outcome = await attach(new SandboxPaymentProvider(), 'tok_bank_account', 'bank_account');
    expect(outcome).toMatchObject({
      ok: true,
      card: null,
      bank_account: { last4: '6789', routing: '110000000', holder: 'Jenny Rosen', status: 'new' },
      wallet: null,
      verified: false,
    });
  });

  it.each([
    ['tok_paypal', 'paypal', { kind: 'paypal', email: 'buyer@example.com' }],
    ['tok_apple_pay', 'wallet', { kind: 'apple_pay', email: null }],
    ['tok_google_pay', 'wallet', { kind: 'google_pay', email: null }],
  ] as const)('%s attaches as a verified wallet', async (token, type, wallet) => {
    const outcome = await attach(new SandboxPaymentProvider(), token, type);
    expect(outcome).toMatchObject({ ok: true, card: null, bank_account: null, wallet, verified: true });
  });

  it('derives the provider reference from the idempotency key', async () => {
    const outcome = await new SandboxPaymentProvider().attach({ type: 'card', token: 'tok_visa', now: NOW, idempotencyKey: 'idem-1' });
    const expected = 'sbx_pm_' + createHash('sha256').update('idem-1').digest('hex').slice(0, 24);
    expect(outcome).toMatchObject({ ok: true, providerRef: expected });
  });

  it.each([
    ['2026-11-10T00:00:00Z', 11, 2026],
    ['2026-11-30T12:00:00Z', 12, 2026],
    ['2026-12-31T23:59:59Z', 1, 2027],
    ['2026-02-28T08:00:00Z', 3, 2026],
  ])('tok_expiring attached at %s expires at the end of %i/%i', async (now, exp_month, exp_year) => {
    const outcome = await attach(new SandboxPaymentProvider(), 'tok_expiring', 'card', now);
    expect(outcome).toMatchObject({ ok: true, card: { brand: 'visa', last4: '1111', exp_month, exp_year, funding: 'credit' }, verified: false });
  });

  it('marks only tok_chargeback as disputed after success', () => {
    const disputed = [...TEST_TOKENS].filter(([, token]) => token.disputesAfterSuccess).map(([name]) => name);
    expect(disputed).toEqual(['tok_chargeback']);
  });

  it('answers token_unknown for a token it does not know', async () => {
    const outcome = await attach(new SandboxPaymentProvider(), 'tok_nope', 'card');
    expect(outcome).toEqual({ ok: false, code: 'token_unknown', message: expect.any(String) });
  });

  it.each([
    ['tok_visa', 'bank_account'],
    ['tok_bank_account', 'card'],
    ['tok_paypal', 'wallet'],
    ['tok_apple_pay', 'paypal'],
  ] as const)('answers token_type_mismatch for %s attached as %s', async (token, type) => {
    const outcome = await attach(new SandboxPaymentProvider(), token, type);
    expect(outcome).toEqual({ ok: false, code: 'token_type_mismatch', message: expect.any(String) });
  });

  it('refuses a card number sent as a token and records nothing of it', async () => {
    const record = new InMemorySandboxRecord();
    const put = jest.spyOn(record, 'put');
    const outcome = await new SandboxPaymentProvider(record).attach({ type: 'card', token: '4242 4242 4242 4242', now: NOW, idempotencyKey: 'idem-pan' });
    expect(outcome).toMatchObject({ ok: false, code: 'token_unknown' });
    expect(JSON.stringify(outcome)).not.toContain('4242 4242');
    expect(put).not.toHaveBeenCalled();
  });
});
