import type { ContextManifest } from '@tally/runtime';
import { CardExpiryProcess } from './card-expiry.process';
import { PaymentMethodAttachmentReaction } from './payment-method-attachment.reaction';
import { paymentMethodPii } from './payment-method.pii';
import { paymentMethodProjection } from './payment-method.projection';
import { PaymentsModule } from './payments.module';

/** Payment methods (attached by provider token, verified, expiring) and the payment provider port. */
export const paymentsContext: ContextManifest = {
  name: 'payments',
  module: PaymentsModule,
  projections: [paymentMethodProjection],
  processes: [CardExpiryProcess],
  reactions: [PaymentMethodAttachmentReaction],
  pii: paymentMethodPii,
  aggregateTypes: [{ idPrefix: 'pm', type: 'payment_method' }],
};
