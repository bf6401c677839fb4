import type { RefundRequest } from '../payment-provider.port';
import { SandboxPaymentProvider } from './sandbox-provider';

const NOW = '2026-05-14T09:30:00Z';

/** A provider holding one payment of 12.50 USD made with `token`, and its id. */
async function paidWith(token: string) {
  const provider = new SandboxPaymentProvider();
  const attached = await provider.attach({ type: 'card', token, now: NOW, idempotencyKey: `attach-${token}` });
  if (!attached.ok) throw new Error(`${token} did not attach: ${attached.code}`);
  const charged = await provider.charge({ providerRef: attached.providerRef, amount: '12.50', currency: 'usd', now: NOW, idempotencyKey: `charge-${token}` });
  const refund = (idempotencyKey: string, changes: Partial<RefundRequest> = {}) =>
    provider.refund({ providerPaymentId: charged.providerPaymentId, amount: '12.50', currency: 'usd', now: NOW, idempotencyKey, ...changes });
  return { provider, providerPaymentId: charged.providerPaymentId, refund };
}

describe('refunding a sandbox payment', () => {
  it('returns a succeeded payment and lists the refund beside the charge', async () => {
    const { provider, providerPaymentId, refund } = await paidWith('tok_visa');
    expect(await refund('refund:pay_1')).toEqual({ status: 'succeeded', providerRefundId: expect.stringMatching(/^sbx_re_[0-9a-f]{24}$/), refundedAt: '2026-05-14T09:30:00.000Z' });
    expect(await provider.refunds()).toEqual([{ providerRefundId: expect.stringMatching(/^sbx_re_/), providerPaymentId, amount: '12.50', currency: 'usd', idempotencyKey: 'refund:pay_1' }]);
    expect((await provider.charges()).map((charge) => charge.status)).toEqual(['succeeded']);
  });

  it('refunds once for a repeated key, even with a later clock', async () => {
    const { provider, refund } = await paidWith('tok_visa');
    const first = await refund('refund:pay_1');
    expect(await refund('refund:pay_1', { now: '2026-05-15T09:30:00Z' })).toEqual(first);
    expect(await provider.refunds()).toHaveLength(1);
  });

  it('never refunds more than the payment, in parts or at once', async () => {
    const { provider, refund } = await paidWith('tok_visa');
    expect(await refund('part-1', { amount: '10.00' })).toMatchObject({ status: 'succeeded' });
    expect(await refund('part-2', { amount: '2.51' })).toEqual({ status: 'failed', code: 'amount_too_large', message: expect.any(String), ambiguous: false });
    expect(await refund('part-3', { amount: '2.50' })).toMatchObject({ status: 'succeeded' });
    expect((await provider.refunds()).map((made) => made.amount)).toEqual(['10.00', '2.50']);
  });

  it('refuses a payment that took no money, one it does not know, and another currency', async () => {
    const { provider, refund } = await paidWith('tok_3ds_required');
    expect(await refund('refund:waiting')).toMatchObject({ status: 'failed', code: 'charge_not_refundable' });
    expect(await refund('refund:unknown', { providerPaymentId: 'sbx_py_nope' })).toMatchObject({ status: 'failed', code: 'charge_not_refundable' });
    const visa = await paidWith('tok_visa');
    expect(await visa.refund('refund:eur', { currency: 'eur' })).toMatchObject({ status: 'failed', code: 'currency_mismatch' });
    expect([...(await provider.refunds()), ...(await visa.provider.refunds())]).toEqual([]);
  });
});

describe('the sandbox’s refund behaviours, by the amount’s cents', () => {
  it('declines .13 and refunds nothing', async () => {
    const { provider, refund } = await paidWith('tok_visa');
    expect(await refund('decline:1', { amount: '1.13' })).toEqual({ status: 'failed', code: 'refund_declined', message: expect.any(String), ambiguous: false });
    expect(await provider.refunds()).toEqual([]);
  });

  it('meets an outage at .23 however often the key asks, and refunds nothing', async () => {
    const { provider, refund } = await paidWith('tok_visa');
    for (let i = 0; i < 2; i++) expect(await refund('outage:1', { amount: '1.23' })).toMatchObject({ status: 'failed', code: 'provider_unavailable', ambiguous: true });
    expect(await provider.refunds()).toEqual([]);
  });

  it('refunds .43 but loses the first answer: the same key asked again answers the refund made, once', async () => {
    const { provider, providerPaymentId, refund } = await paidWith('tok_visa');
    expect(await refund('lost:1', { amount: '1.43', reference: 'rfd_1' })).toMatchObject({ status: 'failed', code: 'timeout', ambiguous: true });
    const made = await refund('lost:1', { amount: '1.43', reference: 'rfd_1' });
    expect(made).toMatchObject({ status: 'succeeded', providerRefundId: expect.stringMatching(/^sbx_re_/) });
    expect(await provider.refunds()).toMatchObject([{ amount: '1.43', reference: 'rfd_1' }]);
    expect(await provider.findRefund({ providerPaymentId, reference: 'rfd_1' })).toEqual({ providerRefundId: made.status === 'succeeded' && made.providerRefundId, refundedAt: '2026-05-14T09:30:00.000Z' });
    expect(await provider.findRefund({ providerPaymentId, reference: 'rfd_2' })).toBeUndefined();
  });
});
