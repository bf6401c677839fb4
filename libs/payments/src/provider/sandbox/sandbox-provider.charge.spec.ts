import { createHash } from 'node:crypto';
import type { AttachRequest } from '../payment-provider.port';
import { SandboxPaymentProvider } from './sandbox-provider';

const NOW = '2026-05-14T09:30:00Z';

async function attached(provider: SandboxPaymentProvider, token: string, type: AttachRequest['type'] = 'card'): Promise<string> {
  const outcome = await provider.attach({ type, token, now: NOW, idempotencyKey: `attach-${token}` });
  if (!outcome.ok) throw new Error(`${token} did not attach: ${outcome.code}`);
  return outcome.providerRef;
}

async function chargeOnce(token: string, type: AttachRequest['type'] = 'card', now = NOW) {
  const provider = new SandboxPaymentProvider();
  const providerRef = await attached(provider, token, type);
  const outcome = await provider.charge({ providerRef, amount: '12.50', currency: 'usd', now, idempotencyKey: `charge-${token}` });
  return { provider, outcome };
}

const complete = (provider: SandboxPaymentProvider, providerPaymentId: string, outcome: 'succeeded' | 'failed', idempotencyKey: string, now = NOW) =>
  provider.completeAction({ providerPaymentId, outcome, now, idempotencyKey });

describe('charging a sandbox payment method', () => {
  it.each([
    ['tok_visa', 'card'],
    ['tok_mastercard', 'card'],
    ['tok_amex', 'card'],
    ['tok_visa_debit', 'card'],
    ['tok_expiring', 'card'],
    ['tok_paypal', 'paypal'],
    ['tok_apple_pay', 'wallet'],
    ['tok_google_pay', 'wallet'],
  ] as const)('%s succeeds, captured at the charge time', async (token, type) => {
    const { outcome } = await chargeOnce(token, type);
    expect(outcome).toEqual({ status: 'succeeded', providerPaymentId: expect.stringMatching(/^sbx_py_[0-9a-f]{24}$/), capturedAt: '2026-05-14T09:30:00.000Z' });
  });

  it('tok_chargeback succeeds, and the provider reports its dispute with the charge', async () => {
    const { outcome } = await chargeOnce('tok_chargeback', 'card');
    expect(outcome).toEqual({
      status: 'succeeded',
      providerPaymentId: expect.stringMatching(/^sbx_py_[0-9a-f]{24}$/),
      capturedAt: '2026-05-14T09:30:00.000Z',
      dispute: { reason: 'fraudulent' },
    });
  });

  it('derives the payment id from the idempotency key', async () => {
    const { outcome } = await chargeOnce('tok_visa');
    expect(outcome.providerPaymentId).toBe('sbx_py_' + createHash('sha256').update('charge-tok_visa').digest('hex').slice(0, 24));
  });

  it('lists the charge with its amount, currency and status', async () => {
    const { provider, outcome } = await chargeOnce('tok_visa');
    expect(await provider.charges()).toEqual([
      {
        providerPaymentId: outcome.providerPaymentId,
        providerRef: expect.stringMatching(/^sbx_pm_/),
        amount: '12.50',
        currency: 'usd',
        idempotencyKey: 'charge-tok_visa',
        status: 'succeeded',
      },
    ]);
  });

  it('tok_card_declined fails with a generic decline that is not retriable', async () => {
    const { outcome } = await chargeOnce('tok_card_declined');
    expect(outcome).toMatchObject({
      status: 'failed',
      error: { code: 'card_declined', decline_code: 'generic_decline', is_retriable: false, retriable_after: null },
    });
  });

  it('tok_insufficient_funds fails, retriable exactly one day after the charge', async () => {
    const { outcome } = await chargeOnce('tok_insufficient_funds', 'card', '2026-05-31T23:15:00Z');
    expect(outcome).toMatchObject({
      status: 'failed',
      error: { code: 'card_declined', decline_code: 'insufficient_funds', is_retriable: true, retriable_after: '2026-06-01T23:15:00.000Z' },
    });
  });

  it('tok_processing_error fails, retriable at once', async () => {
    const { outcome } = await chargeOnce('tok_processing_error');
    expect(outcome).toMatchObject({
      status: 'failed',
      error: { code: 'processing_error', decline_code: null, is_retriable: true, retriable_after: '2026-05-14T09:30:00.000Z' },
    });
  });

  it('every failure carries a message for the provider and one for the customer', async () => {
    const { outcome } = await chargeOnce('tok_card_declined');
    if (outcome.status !== 'failed') throw new Error(`expected a failure, got ${outcome.status}`);
    expect(outcome.error.provider_message).not.toBe('');
    expect(outcome.error.user_message).not.toBe('');
  });

  it('fails a charge on a payment method it does not hold, not retriable, and lists no charge', async () => {
    const provider = new SandboxPaymentProvider();
    const outcome = await provider.charge({ providerRef: 'sbx_pm_unknown', amount: '5.00', currency: 'usd', now: NOW, idempotencyKey: 'charge-unknown' });
    expect(outcome).toMatchObject({ status: 'failed', error: { code: 'payment_method_unknown', is_retriable: false, retriable_after: null } });
    expect(await provider.charges()).toEqual([]);
  });

  describe('tok_3ds_required', () => {
    it('asks for a redirect without a URL: the caller sends the customer to its own page', async () => {
      const { outcome } = await chargeOnce('tok_3ds_required');
      expect(outcome).toEqual({ status: 'requires_action', providerPaymentId: expect.stringMatching(/^sbx_py_/), nextAction: { type: 'redirect_to_url' } });
    });

    it('succeeds once the customer completes the authentication', async () => {
      const { provider, outcome } = await chargeOnce('tok_3ds_required');
      const completed = await complete(provider, outcome.providerPaymentId, 'succeeded', 'complete-1', '2026-05-14T09:32:00Z');
      expect(completed).toEqual({ status: 'succeeded', providerPaymentId: outcome.providerPaymentId, capturedAt: '2026-05-14T09:32:00.000Z' });
      expect((await provider.charges()).map((charge) => charge.status)).toEqual(['succeeded']);
    });

    it('fails with authentication_failed, not retriable, when the authentication fails', async () => {
      const { provider, outcome } = await chargeOnce('tok_3ds_required');
      const completed = await complete(provider, outcome.providerPaymentId, 'failed', 'complete-1');
      expect(completed).toMatchObject({
        status: 'failed',
        providerPaymentId: outcome.providerPaymentId,
        error: { code: 'authentication_failed', is_retriable: false, retriable_after: null },
      });
      expect((await provider.charges()).map((charge) => charge.status)).toEqual(['failed']);
    });

    it('answers the outcome a completed payment has when it is completed again', async () => {
      const { provider, outcome } = await chargeOnce('tok_3ds_required');
      const first = await complete(provider, outcome.providerPaymentId, 'failed', 'complete-1');
      const second = await complete(provider, outcome.providerPaymentId, 'succeeded', 'complete-2');
      expect(second).toEqual(first);
    });
  });

  it('tok_3ds_sdk asks for the provider SDK with a client secret derived from the idempotency key', async () => {
    const { outcome } = await chargeOnce('tok_3ds_sdk');
    const secret = createHash('sha256').update('client_secret:charge-tok_3ds_sdk').digest('hex').slice(0, 16);
    expect(outcome).toEqual({
      status: 'requires_action',
      providerPaymentId: outcome.providerPaymentId,
      nextAction: { type: 'use_provider_sdk', provider: 'sandbox', payment_intent_client_secret: `${outcome.providerPaymentId}_secret_${secret}` },
    });
  });

  describe('tok_bank_account', () => {
    it('is processing until it settles, then succeeded at the settlement time', async () => {
      const { provider, outcome } = await chargeOnce('tok_bank_account', 'bank_account');
      expect(outcome).toEqual({ status: 'processing', providerPaymentId: expect.stringMatching(/^sbx_py_/) });

      const settled = await provider.settle({ providerPaymentId: outcome.providerPaymentId, now: '2026-05-18T00:00:00Z', idempotencyKey: 'settle-1' });

      expect(settled).toEqual({ status: 'succeeded', providerPaymentId: outcome.providerPaymentId, capturedAt: '2026-05-18T00:00:00.000Z' });
      expect((await provider.charges()).map((charge) => charge.status)).toEqual(['succeeded']);
    });

    it('settling a payment that is not processing answers the outcome it has', async () => {
      const { provider, outcome } = await chargeOnce('tok_visa');
      const settled = await provider.settle({ providerPaymentId: outcome.providerPaymentId, now: '2026-05-18T00:00:00Z', idempotencyKey: 'settle-1' });
      expect(settled).toEqual(outcome);
    });
  });

  it('settling a payment it does not know answers payment_unknown', async () => {
    const outcome = await new SandboxPaymentProvider().settle({ providerPaymentId: 'sbx_py_unknown', now: NOW, idempotencyKey: 'settle-1' });
    expect(outcome).toMatchObject({ status: 'failed', providerPaymentId: 'sbx_py_unknown', error: { code: 'payment_unknown', is_retriable: false } });
  });

  it('completing the action of a payment it does not know answers payment_unknown', async () => {
    const outcome = await complete(new SandboxPaymentProvider(), 'sbx_py_unknown', 'succeeded', 'complete-1');
    expect(outcome).toMatchObject({ status: 'failed', providerPaymentId: 'sbx_py_unknown', error: { code: 'payment_unknown', is_retriable: false } });
  });
});
