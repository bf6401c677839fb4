import { join } from 'node:path';
import { Module } from '@nestjs/common';
import { TALLY_CONFIG, type TallyConfig } from '@tally/cells';
import { CustomersModule } from '@tally/customers';
import { WalletsModule } from '@tally/wallets';
import { InvoicingModule } from '@tally/invoicing';
import { PaymentMethodAttachmentReaction } from './payment-method-attachment.reaction';
import { PaymentMethods } from './payment-methods';
import { PaymentMethodReadsController, PaymentMethodsController } from './payment-methods.controller';
import { PaymentReadsController, PaymentsController } from './payments.controller';
import { PaymentTestHelpersController } from './payment-test-helpers.controller';
import { InvoicePayer } from './invoice-payer';
import { PaymentFollowUps } from './payment-follow-ups';
import { OpenPaymentCancellation } from './open-payment-cancellation';
import { PaymentActionUrls } from './payment-action-urls';
import { PaymentCharger } from './payment-charger';
import { PaymentActionLinks } from './payment-action-links';
import { PaymentFlowReaction } from './payment-flow.reaction';
import { WalletTopUpReaction } from './wallet-top-up.reaction';
import { PaymentActionPageController } from './action-page/action-page.controller';
import { ActionPageHandler } from './action-page/action-page.query';
import { InvoiceDunning } from './dunning.handlers';
import { SetupIntents } from './setup-intents/setup-intents';
import { SetupIntentReadsController, SetupIntentsController } from './setup-intents/setup-intents.controller';
import { DunningProcess } from './dunning.process';
import { PaymentOutcomeOnInvoice } from './payment-outcome-on-invoice';
import { UnappliedPaymentRefundProcess } from './unapplied-payment-refund.process';
import { UnappliedPaymentRefunds } from './unapplied-payment-refunds';
import { Refunds } from './refunds';
import { CreditNoteResolutions } from './credit-note-resolutions';
import { CreditNoteRefundReaction } from './credit-note-refund.reaction';
import { RefundAttemptsProcess } from './refund-attempts.process';
import { RefundReadsController, RefundsController } from './refunds.controller';
import { RefundTestHelpersController } from './refund-test-helpers.controller';
import { PAYMENT_PROVIDER } from './provider/payment-provider.port';
import { SandboxPaymentProvider } from './provider/sandbox/sandbox-provider';
import type { SandboxRecord } from './provider/sandbox/sandbox-record';
import { SANDBOX_RECORD_FILE, SqliteSandboxRecord } from './provider/sandbox/sqlite-sandbox-record';
import { OpenInvoiceSettlement } from './wallet-settlement/open-invoice-settlement';
import { WalletPayments } from './wallet-settlement/wallet-payments';
import { WalletReturnsReaction } from './wallet-settlement/wallet-returns.reaction';
import { WalletSettlementProcess } from './wallet-settlement/wallet-settlement.process';

const SANDBOX_RECORD = Symbol('SandboxRecord');

@Module({
  imports: [CustomersModule, InvoicingModule, WalletsModule],
  controllers: [PaymentMethodsController, PaymentMethodReadsController, SetupIntentsController, SetupIntentReadsController, PaymentReadsController, PaymentsController, PaymentTestHelpersController, PaymentActionPageController, RefundsController, RefundReadsController, RefundTestHelpersController],
  providers: [
    InvoicePayer,
    PaymentFollowUps,
    OpenPaymentCancellation,
    PaymentActionUrls,
    PaymentCharger,
    PaymentOutcomeOnInvoice,
    PaymentActionLinks,
    PaymentFlowReaction,
    ActionPageHandler,
    InvoiceDunning,
    SetupIntents,
    DunningProcess,
    UnappliedPaymentRefundProcess,
    UnappliedPaymentRefunds,
    Refunds,
    RefundAttemptsProcess,
    CreditNoteResolutions,
    CreditNoteRefundReaction,
    PaymentMethods,
    PaymentMethodAttachmentReaction,
    WalletTopUpReaction,
    WalletPayments,
    OpenInvoiceSettlement,
    WalletSettlementProcess,
    WalletReturnsReaction,
    { provide: SANDBOX_RECORD, useFactory: (config: TallyConfig) => new SqliteSandboxRecord(join(config.dataDir, SANDBOX_RECORD_FILE)), inject: [TALLY_CONFIG] },
    { provide: PAYMENT_PROVIDER, useFactory: (record: SandboxRecord) => new SandboxPaymentProvider(record), inject: [SANDBOX_RECORD] },
  ],
  exports: [PaymentMethodAttachmentReaction, PaymentFlowReaction, DunningProcess, UnappliedPaymentRefundProcess, WalletTopUpReaction, WalletSettlementProcess, WalletReturnsReaction, RefundAttemptsProcess, CreditNoteRefundReaction],
})
export class PaymentsModule {}
