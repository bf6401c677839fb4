import { Injectable } from '@nestjs/common';
import { CellRegistry, LinkSigner, PublicUrl, type LinkClaims, type LinkPurpose, type RequestContext, type SignedLink } from '@tally/cells';

/** Where the hosted page of a payment's action (3DS) lives: outside `/v1`, for the customer's browser. */
export const PAYMENT_ACTION_PATH = '/payment-actions';

/** A day, as Stripe's hosted authentication pages last; a fresh link comes from `GET /v1/payments/{id}/action-url`. */
export const PAYMENT_ACTION_LINK_LIFETIME_SECONDS = 86_400;

export const PAYMENT_ACTION_LINKS: LinkPurpose = {
  keyInfo: 'payment action links',
  label: 'tally.payment_action.v1',
  path: PAYMENT_ACTION_PATH,
  lifetimeSeconds: PAYMENT_ACTION_LINK_LIFETIME_SECONDS,
  refusals: {
    invalid: { code: 'payment_action.invalid_signature', detail: 'This link to a payment’s authentication page is not one Tally signed, or was changed' },
    expired: { code: 'payment_action.link_expired', detail: (at) => `This link to a payment’s authentication page expired at ${at}; ask the merchant for a new one` },
  },
};

/** Signs and checks the links to the hosted action page of a payment. */
@Injectable()
export class PaymentActionLinks {
  private signer: LinkSigner | undefined;

  constructor(
    private readonly cells: CellRegistry,
    private readonly publicUrl: PublicUrl,
  ) {}

  sign(context: Pick<RequestContext, 'tenantId' | 'environment'>, paymentId: string, now: Date): SignedLink {
    return this.keyed().sign(context, paymentId, now);
  }

  verify(paymentId: string, query: Record<string, unknown>, now: Date): LinkClaims {
    return this.keyed().verify(paymentId, query, now);
  }

  private keyed(): LinkSigner {
    this.signer ??= LinkSigner.derive(this.cells.keys, PAYMENT_ACTION_LINKS, this.publicUrl);
    return this.signer;
  }
}
