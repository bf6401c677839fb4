import { IdempotencyKeyReusedError } from '../payment-provider.port';
import type { ChargeRequest } from '../payment-provider.port';
import { SandboxPaymentProvider } from './sandbox-provider';
import { InMemorySandboxRecord } from './sandbox-record';

const NOW = '2026-05-14T09:30:00Z';

async function providerWithVisa(provider = new SandboxPaymentProvider()) {
  const outcome = await provider.attach({ type: 'card', token: 'tok_visa', now: NOW, idempotencyKey: 'attach-visa' });
  if (!outcome.ok) throw new Error(`tok_visa did not attach: ${outcome.code}`);
  const charge = (idempotencyKey: string, changes: Partial<ChargeRequest> = {}) =>
    provider.charge({ providerRef: outcome.providerRef, amount: '12.50', currency: 'usd', now: NOW, idempotencyKey, ...changes });
  return { provider, providerRef: outcome.providerRef, charge };
}

describe('idempotency of the sandbox provider', () => {
  it('given a charge, when it is sent again with the same key, then it answers the same outcome and charges once', async () => {
    const { provider, charge } = await providerWithVisa();
    const first = await charge('charge-1');
    const retry = await charge('charge-1');
    expect(retry).toEqual(first);
    expect(await provider.charges()).toHaveLength(1);
  });

  it('answers the first outcome to a retry that comes with a later clock', async () => {
    const { provider, charge } = await providerWithVisa();
    const first = await charge('charge-1');
    expect(await charge('charge-1', { now: '2026-05-14T10:00:00Z' })).toEqual(first);
    expect(await provider.charges()).toHaveLength(1);
  });

  it('takes a retry built in another field order, or with an absent field set to undefined, for the same request', async () => {
    const { provider, providerRef, charge } = await providerWithVisa();
    const first = await charge('charge-1');
    const rebuilt = { idempotencyKey: 'charge-1', now: NOW, currency: 'usd', amount: '12.50', providerRef, returnUrl: undefined };
    expect(await provider.charge(rebuilt)).toEqual(first);
    expect(await provider.charges()).toHaveLength(1);
  });

  it('charges once for a retry racing its original, and loses no charge sent alongside', async () => {
    const { provider, charge } = await providerWithVisa();
    const [first, retry] = await Promise.all([charge('charge-1'), charge('charge-1'), charge('charge-2')]);
    expect(retry).toEqual(first);
    expect((await provider.charges()).map((c) => c.idempotencyKey)).toEqual(['charge-1', 'charge-2']);
  });

  it('charges twice for two keys', async () => {
    const { provider, charge } = await providerWithVisa();
    const first = await charge('charge-1');
    const second = await charge('charge-2');
    expect(second.providerPaymentId).not.toBe(first.providerPaymentId);
    expect((await provider.charges()).map((c) => c.idempotencyKey)).toEqual(['charge-1', 'charge-2']);
  });

  it('refuses a key reused for a different charge, and charges nothing more', async () => {
    const { provider, charge } = await providerWithVisa();
    await charge('charge-1');
    await expect(charge('charge-1', { amount: '99.00' })).rejects.toBeInstanceOf(IdempotencyKeyReusedError);
    expect(await provider.charges()).toHaveLength(1);
  });

  it('keeps answering after a refused request', async () => {
    const { charge } = await providerWithVisa();
    await charge('charge-1');
    await expect(charge('charge-1', { amount: '99.00' })).rejects.toThrow(IdempotencyKeyReusedError);
    expect(await charge('charge-2')).toMatchObject({ status: 'succeeded' });
  });

  it('attaches once per key: the same reference for a retry', async () => {
    const provider = new SandboxPaymentProvider();
    const request = { type: 'card', token: 'tok_visa', now: NOW, idempotencyKey: 'attach-1' } as const;
    expect(await provider.attach(request)).toEqual(await provider.attach(request));
  });

  it('authorises a card once for a retried verification', async () => {
    const { provider, providerRef } = await providerWithVisa();
    await provider.verify({ providerRef, type: 'card', idempotencyKey: 'verify-1' });
    await provider.verify({ providerRef, type: 'card', idempotencyKey: 'verify-1' });
    expect(await provider.cardChecks()).toHaveLength(1);
  });

  it('answers a retried settlement as first answered, though the payment has moved on', async () => {
    const provider = new SandboxPaymentProvider();
    const attached = await provider.attach({ type: 'bank_account', token: 'tok_bank_account', now: NOW, idempotencyKey: 'attach-bank' });
    if (!attached.ok) throw new Error('tok_bank_account did not attach');
    const charged = { providerRef: attached.providerRef, amount: '40.00', currency: 'usd', now: NOW, idempotencyKey: 'charge-1' };
    const { providerPaymentId } = await provider.charge(charged);
    const settled = await provider.settle({ providerPaymentId, now: '2026-05-18T00:00:00Z', idempotencyKey: 'settle-1' });
    expect(await provider.settle({ providerPaymentId, now: '2026-05-19T00:00:00Z', idempotencyKey: 'settle-1' })).toEqual(settled);
  });

  it('given a record shared by two providers, a retry through the second answers what the first charged', async () => {
    const record = new InMemorySandboxRecord();
    const { charge } = await providerWithVisa(new SandboxPaymentProvider(record));
    const first = await charge('charge-1');
    const { provider: restarted, charge: chargeAgain } = await providerWithVisa(new SandboxPaymentProvider(record));
    expect(await chargeAgain('charge-1')).toEqual(first);
    expect(await restarted.charges()).toHaveLength(1);
  });

  it('keeps what it recorded when a caller changes an answer', async () => {
    const { provider, charge } = await providerWithVisa();
    const first = await charge('charge-1');
    Object.assign(first, { status: 'failed' });
    expect(await charge('charge-1')).toMatchObject({ status: 'succeeded' });
    expect((await provider.charges())[0].status).toBe('succeeded');
  });
});
