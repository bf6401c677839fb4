import { join } from 'node:path';
import { Module } from '@nestjs/common';
import { TALLY_CONFIG, type TallyConfig } from '@tally/cells';
import { CardExpiryProcess, MarkCardExpiryHandler } from './card-expiry.process';
import { PaymentMethodAttachmentReaction } from './payment-method-attachment.reaction';
import { RecordPaymentMethodOnCustomerHandler } from './payment-method-on-customer.handler';
import { paymentMethodCommandHandlers } from './payment-method.handlers';
import { PaymentMethodsController } from './payment-methods.controller';
import { PaymentReadsController, PaymentsController } from './payments.controller';
import { PaymentTestHelpersController } from './payment-test-helpers.controller';
import { paymentCommandHandlers } from './payment.handlers';
import { paymentOnInvoiceHandlers } from './payment-on-invoice.handlers';
import { paymentQueryHandlers } from './payment.queries';
import { PaymentCharger } from './payment-charger';
import { PaymentActionLinks } from './payment-action-links';
import { PaymentFlowReaction } from './payment-flow.reaction';
import { PaymentActionPageController } from './action-page/action-page.controller';
import { ActionPageHandler } from './action-page/action-page.query';
import { dunningHandlers } from './dunning.handlers';
import { setupIntentCommandHandlers } from './setup-intents/setup-intent.handlers';
import { SetupIntentsController } from './setup-intents/setup-intents.controller';
import { DunningProcess } from './dunning.process';
import { PaymentOutcomeOnInvoice } from './payment-outcome-on-invoice';
import { RefundUnappliedPaymentHandler, UnappliedPaymentRefundProcess } from './unapplied-payment-refund.process';
import { PAYMENT_PROVIDER } from './provider/payment-provider.port';
import { SandboxPaymentProvider } from './provider/sandbox/sandbox-provider';
import type { SandboxRecord } from './provider/sandbox/sandbox-record';
import { SANDBOX_RECORD_FILE, SqliteSandboxRecord } from './provider/sandbox/sqlite-sandbox-record';

const SANDBOX_RECORD = Symbol('SandboxRecord');

@Module({
  controllers: [PaymentMethodsController, SetupIntentsController, PaymentReadsController, PaymentsController, PaymentTestHelpersController, PaymentActionPageController],
  providers: [
    ...paymentCommandHandlers,
    ...paymentOnInvoiceHandlers,
    ...paymentQueryHandlers,
    PaymentCharger,
    PaymentOutcomeOnInvoice,
    PaymentActionLinks,
    PaymentFlowReaction,
    ActionPageHandler,
    ...dunningHandlers,
    ...setupIntentCommandHandlers,
    DunningProcess,
    UnappliedPaymentRefundProcess,
    RefundUnappliedPaymentHandler,
    ...paymentMethodCommandHandlers,
    RecordPaymentMethodOnCustomerHandler,
    MarkCardExpiryHandler,
    PaymentMethodAttachmentReaction,
    CardExpiryProcess,
    { provide: SANDBOX_RECORD, useFactory: (config: TallyConfig) => new SqliteSandboxRecord(join(config.dataDir, SANDBOX_RECORD_FILE)), inject: [TALLY_CONFIG] },
    { provide: PAYMENT_PROVIDER, useFactory: (record: SandboxRecord) => new SandboxPaymentProvider(record), inject: [SANDBOX_RECORD] },
  ],
  exports: [PaymentMethodAttachmentReaction, PaymentFlowReaction, CardExpiryProcess, DunningProcess, UnappliedPaymentRefundProcess],
})
export class PaymentsModule {}
