import type { AttachRequest } from '../payment-provider.port';
import { SandboxPaymentProvider } from './sandbox-provider';

const NOW = '2026-05-14T09:30:00Z';

async function attached(provider: SandboxPaymentProvider, token: string, type: AttachRequest['type']): Promise<string> {
  const outcome = await provider.attach({ type, token, now: NOW, idempotencyKey: `attach-${token}` });
  if (!outcome.ok) throw new Error(`${token} did not attach: ${outcome.code}`);
  return outcome.providerRef;
}

async function bankAccountAwaitingMicroDeposits() {
  const provider = new SandboxPaymentProvider();
  const providerRef = await attached(provider, 'tok_bank_account', 'bank_account');
  await provider.verify({ providerRef, type: 'bank_account', idempotencyKey: 'verify-bank' });
  return { provider, providerRef };
}

const confirmRightAmounts = (provider: SandboxPaymentProvider, providerRef: string, idempotencyKey: string) =>
  provider.confirmMicroDeposits({ providerRef, amounts: ['0.32', '0.45'], idempotencyKey });

describe('verifying a sandbox payment method', () => {
  it('verifies a card with a 0-unit authorisation and its reversal', async () => {
    const provider = new SandboxPaymentProvider();
    const providerRef = await attached(provider, 'tok_visa', 'card');

    const outcome = await provider.verify({ providerRef, type: 'card', idempotencyKey: 'verify-card' });

    expect(outcome).toEqual({ status: 'verified' });
    expect(await provider.cardChecks()).toEqual([
      {
        providerRef,
        idempotencyKey: 'verify-card',
        operations: [
          { type: 'authorisation', amount: '0' },
          { type: 'reversal', amount: '0' },
        ],
      },
    ]);
    expect(await provider.charges()).toEqual([]);
  });

  it.each([
    ['tok_paypal', 'paypal'],
    ['tok_apple_pay', 'wallet'],
    ['tok_google_pay', 'wallet'],
  ] as const)('verifies %s at once, without a card check', async (token, type) => {
    const provider = new SandboxPaymentProvider();
    const providerRef = await attached(provider, token, type);
    expect(await provider.verify({ providerRef, type, idempotencyKey: 'verify-wallet' })).toEqual({ status: 'verified' });
    expect(await provider.cardChecks()).toEqual([]);
  });

  it('starts micro-deposits for a bank account', async () => {
    const provider = new SandboxPaymentProvider();
    const providerRef = await attached(provider, 'tok_bank_account', 'bank_account');
    const outcome = await provider.verify({ providerRef, type: 'bank_account', idempotencyKey: 'verify-bank' });
    expect(outcome).toEqual({ status: 'verifying', method: 'microdeposits' });
  });

  it('answers payment_method_unknown for a reference it does not hold', async () => {
    const outcome = await new SandboxPaymentProvider().verify({ providerRef: 'sbx_pm_unknown', type: 'card', idempotencyKey: 'verify-1' });
    expect(outcome).toMatchObject({ status: 'failed', code: 'payment_method_unknown' });
  });

  it('answers payment_method_type_mismatch when the type is not the method’s', async () => {
    const provider = new SandboxPaymentProvider();
    const providerRef = await attached(provider, 'tok_visa', 'card');
    const outcome = await provider.verify({ providerRef, type: 'bank_account', idempotencyKey: 'verify-1' });
    expect(outcome).toMatchObject({ status: 'failed', code: 'payment_method_type_mismatch' });
  });

  describe('confirming micro-deposits', () => {
    it.each([
      [['0.32', '0.45']],
      [['0.45', '0.32']],
      [['.32', '0.450']],
    ] as const)('verifies the account for the amounts %p', async (amounts) => {
      const { provider, providerRef } = await bankAccountAwaitingMicroDeposits();
      expect(await provider.confirmMicroDeposits({ providerRef, amounts, idempotencyKey: 'confirm-1' })).toEqual({ status: 'verified' });
    });

    it.each([
      [['0.32', '0.46']],
      [['0.32', '0.32']],
      [['32', '45']],
      [['', 'abc']],
    ] as const)('refuses the amounts %p', async (amounts) => {
      const { provider, providerRef } = await bankAccountAwaitingMicroDeposits();
      const outcome = await provider.confirmMicroDeposits({ providerRef, amounts, idempotencyKey: 'confirm-1' });
      expect(outcome).toMatchObject({ status: 'failed', code: 'microdeposit_amounts_mismatch' });
    });

    it('lets the customer try again after wrong amounts', async () => {
      const { provider, providerRef } = await bankAccountAwaitingMicroDeposits();
      await provider.confirmMicroDeposits({ providerRef, amounts: ['0.12', '0.34'], idempotencyKey: 'confirm-1' });
      expect(await confirmRightAmounts(provider, providerRef, 'confirm-2')).toEqual({ status: 'verified' });
    });

    it('answers not_verifying for an account whose micro-deposits were not started', async () => {
      const provider = new SandboxPaymentProvider();
      const providerRef = await attached(provider, 'tok_bank_account', 'bank_account');
      expect(await confirmRightAmounts(provider, providerRef, 'confirm-1')).toMatchObject({ status: 'failed', code: 'not_verifying' });
    });

    it('answers not_verifying for an account already verified', async () => {
      const { provider, providerRef } = await bankAccountAwaitingMicroDeposits();
      await confirmRightAmounts(provider, providerRef, 'confirm-1');
      expect(await confirmRightAmounts(provider, providerRef, 'confirm-2')).toMatchObject({ status: 'failed', code: 'not_verifying' });
      expect(await provider.verify({ providerRef, type: 'bank_account', idempotencyKey: 'verify-again' })).toEqual({ status: 'verified' });
    });

    it('answers not_verifying for a card', async () => {
      const provider = new SandboxPaymentProvider();
      const providerRef = await attached(provider, 'tok_visa', 'card');
      expect(await confirmRightAmounts(provider, providerRef, 'confirm-1')).toMatchObject({ status: 'failed', code: 'not_verifying' });
    });
  });
});
