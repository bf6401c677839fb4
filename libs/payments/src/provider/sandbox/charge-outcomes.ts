import type { ChargeError, ChargeOutcome } from '../payment-provider.port';
import { isoMillis } from './sandbox-time';

export const succeeded = (providerPaymentId: string, now: string): ChargeOutcome => ({
  status: 'succeeded',
  providerPaymentId,
  capturedAt: isoMillis(now),
});

export const failed = (providerPaymentId: string, error: ChargeError): ChargeOutcome => ({ status: 'failed', providerPaymentId, error });
