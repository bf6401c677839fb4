import { Inject, Injectable } from '@nestjs/common';
import { DomainError } from '@tally/kernel';
import type { RequestContext } from '@tally/cells';
import type { PaymentResource } from './payment.view';
import { PaymentCharger } from './payment-charger';
import { PAYMENT_PROVIDER, type PaymentProvider } from './provider/payment-provider.port';

/** What happens to a payment after its charge: the customer finished (or failed) its action, a processing bank payment settled. */
@Injectable()
export class PaymentFollowUps {
  constructor(
    private readonly charger: PaymentCharger,
    @Inject(PAYMENT_PROVIDER) private readonly provider: PaymentProvider,
  ) {}

  /** The hosted page, or the sandbox's test helper. */
  completeAction(context: RequestContext, paymentId: string, outcome: 'succeeded' | 'failed'): Promise<PaymentResource> {
    const waiting = (status: string) => DomainError.conflict('payment.no_action', `Payment ${paymentId} is ${status}; it waits for no action of the customer`);
    return this.charger.followUp(context, paymentId, 'requires_action', waiting, (providerPaymentId, now) =>
      this.provider.completeAction({ providerPaymentId, outcome, now, idempotencyKey: `action:${paymentId}` }),
    );
  }

  /** The sandbox's test helper stands for the bank. */
  settle(context: RequestContext, paymentId: string): Promise<PaymentResource> {
    const notProcessing = (status: string) => DomainError.conflict('payment.not_processing', `Payment ${paymentId} is ${status}; only processing payments settle`);
    return this.charger.followUp(context, paymentId, 'processing', notProcessing, (providerPaymentId, now) =>
      this.provider.settle({ providerPaymentId, now, idempotencyKey: `settle:${paymentId}` }),
    );
  }
}
