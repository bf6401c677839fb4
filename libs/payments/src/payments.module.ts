import { Module } from '@nestjs/common';
import { CardExpiryProcess, MarkCardExpiryHandler } from './card-expiry.process';
import { PaymentMethodAttachmentReaction } from './payment-method-attachment.reaction';
import { RecordPaymentMethodOnCustomerHandler } from './payment-method-on-customer.handler';
import { paymentMethodCommandHandlers } from './payment-method.handlers';
import { paymentMethodQueryHandlers } from './payment-method.queries';
import { PaymentMethodsController } from './payment-methods.controller';
import { PAYMENT_PROVIDER } from './provider/payment-provider.port';
import { SandboxPaymentProvider } from './provider/sandbox/sandbox-provider';

@Module({
  controllers: [PaymentMethodsController],
  providers: [
    ...paymentMethodCommandHandlers,
    ...paymentMethodQueryHandlers,
    RecordPaymentMethodOnCustomerHandler,
    MarkCardExpiryHandler,
    PaymentMethodAttachmentReaction,
    CardExpiryProcess,
    { provide: PAYMENT_PROVIDER, useClass: SandboxPaymentProvider },
  ],
  exports: [PaymentMethodAttachmentReaction, CardExpiryProcess],
})
export class PaymentsModule {}
