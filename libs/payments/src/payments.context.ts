import type { ContextManifest } from '@tally/runtime';
import { DunningProcess } from './dunning.process';
import { FAILED_INVOICES_ID_PREFIX } from './failed-invoices.aggregate';
import { UnappliedPaymentRefundProcess } from './unapplied-payment-refund.process';
import { PaymentMethodAttachmentReaction } from './payment-method-attachment.reaction';
import { paymentMethodAggregate } from './payment-method.aggregate';
import { paymentMethodPii } from './payment-method.pii';
import { paymentMethodProjection } from './payment-method.projection';
import { PaymentFlowReaction } from './payment-flow.reaction';
import { WalletTopUpReaction } from './wallet-top-up.reaction';
import { paymentResource } from './payment.resource';
import { setupIntentResource } from './setup-intents/setup-intent.resource';
import { PaymentsModule } from './payments.module';
import { WalletReturnsReaction } from './wallet-settlement/wallet-returns.reaction';
import { WalletSettlementProcess } from './wallet-settlement/wallet-settlement.process';
import { PAYMENT_METHODS_SECTION, PAYMENTS_SECTION, REFUNDS_SECTION } from './payments.api-sections';
import { REFUND_ID_PREFIX } from './refund.aggregate';
import { RefundAttemptsProcess } from './refund-attempts.process';
import { CreditNoteRefundReaction } from './credit-note-refund.reaction';
import { refundResource } from './refund.resource';

/** Payment methods (attached by provider token, verified, expiring), payments of invoices through the payment provider port, and the money flow between them. */
export const paymentsContext: ContextManifest = {
  name: 'payments',
  apiSections: [PAYMENT_METHODS_SECTION, PAYMENTS_SECTION, REFUNDS_SECTION],
  module: PaymentsModule,
  projections: [paymentMethodProjection, setupIntentResource.projection, paymentResource.projection, refundResource.projection],
  processes: [DunningProcess, UnappliedPaymentRefundProcess, WalletSettlementProcess, RefundAttemptsProcess],
  reactions: [PaymentMethodAttachmentReaction, PaymentFlowReaction, WalletTopUpReaction, WalletReturnsReaction, CreditNoteRefundReaction],
  timedAggregates: [paymentMethodAggregate],
  pii: paymentMethodPii,
  aggregateTypes: [
    { idPrefix: 'pm', type: 'payment_method' },
    { idPrefix: 'seti', type: 'setup_intent' },
    { idPrefix: 'pay', type: 'payment' },
    { idPrefix: REFUND_ID_PREFIX, type: 'refund' },
    { idPrefix: FAILED_INVOICES_ID_PREFIX, type: 'customer_failed_invoices' },
  ],
};
