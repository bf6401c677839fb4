import Big from 'big.js';
import type { BankAccountStatus } from '../../domain/payment-method.events';
import { looksLikeCardNumber } from '@tally/kernel';
import { IdempotencyKeyReusedError } from '../payment-provider.port';
import type {
  AttachOutcome,
  AttachRequest,
  ChargeOutcome,
  ChargeRequest,
  CompleteActionRequest,
  ConfirmMicroDepositsRequest,
  FindRefundRequest,
  FoundRefund,
  PaymentProvider,
  RefundOutcome,
  RefundRequest,
  SettleRequest,
  VerifyOutcome,
  VerifyRequest,
} from '../payment-provider.port';
import { authenticationFailed, paymentMethodUnknown, paymentUnknown } from './charge-errors';
import { failed, succeeded } from './charge-outcomes';
import { matchesMicroDeposits } from './micro-deposits';
import { isoMillis } from './sandbox-time';
import { providerPaymentIdFor, providerRefFor, providerRefundIdFor, requestDigest } from './sandbox-ids';
import { InMemorySandboxRecord, type SandboxRecord } from './sandbox-record';
import { refundBehaviourOf } from './refund-behaviours';
import { TEST_TOKENS, type TestToken } from './test-tokens';

export interface SandboxCharge {
  providerPaymentId: string;
  providerRef: string;
  amount: string;
  currency: string;
  idempotencyKey: string;
  status: ChargeOutcome['status'];
}

export interface SandboxRefund {
  providerRefundId: string;
  providerPaymentId: string;
  amount: string;
  currency: string;
  idempotencyKey: string;
  /** Tally's refund, when the request named it. */
  reference?: string;
  refundedAt?: string;
  /** The bank returned it after it was made (`failRefund`): the money is the merchant's again. */
  failed?: true;
}

/** A card's verification: a 0-unit authorisation, then its reversal. */
export interface SandboxCardCheck {
  providerRef: string;
  idempotencyKey: string;
  operations: [{ type: 'authorisation'; amount: '0' }, { type: 'reversal'; amount: '0' }];
}

interface HeldMethod {
  token: string;
  bankAccountStatus: BankAccountStatus | null;
}

type Payment = Omit<SandboxCharge, 'status'> & { outcome: ChargeOutcome };

interface Answer<T> {
  request: string;
  outcome: T;
}

const PAYMENTS = 'payment:';
const CARD_CHECKS = 'card-check:';
const REFUNDS = 'refund:';
const paymentKey = (providerPaymentId: string) => `${PAYMENTS}${providerPaymentId}`;
const methodKey = (providerRef: string) => `method:${providerRef}`;

const tokenUnknown = (): AttachOutcome => ({ ok: false, code: 'token_unknown', message: 'This is not a sandbox test token.' });
const verifyFailed = (code: string, message: string): VerifyOutcome => ({ status: 'failed', code, message });
const methodUnknown = () => verifyFailed('payment_method_unknown', 'No payment method is attached under this reference.');
const refundFailed = (code: string, message: string, ambiguous = false): RefundOutcome => ({ status: 'failed', code, message, ambiguous });

/** A payment provider without a network: every method behaves as its test token says, the same way every time. */
export class SandboxPaymentProvider implements PaymentProvider {
  readonly name = 'sandbox';
  private queue: Promise<unknown> = Promise.resolve();

  constructor(private readonly record: SandboxRecord = new InMemorySandboxRecord()) {}

  async attach(req: AttachRequest): Promise<AttachOutcome> {
    // Refused before anything is recorded: a card number is never stored.
    if (looksLikeCardNumber(req.token)) return tokenUnknown();
    return this.once<AttachOutcome>('attach', req, async () => {
      const token = TEST_TOKENS.get(req.token);
      if (!token) return tokenUnknown();
      if (token.type !== req.type) {
        return { ok: false, code: 'token_type_mismatch', message: `${req.token} is a ${token.type} token, not a ${req.type} token.` };
      }
      const providerRef = providerRefFor(req.idempotencyKey);
      const attached = token.attachesAs(req.now);
      await this.putMethod(providerRef, { token: req.token, bankAccountStatus: attached.bank_account?.status ?? null });
      return { ok: true, providerRef, ...attached };
    });
  }

  verify(req: VerifyRequest): Promise<VerifyOutcome> {
    return this.once<VerifyOutcome>('verify', req, async () => {
      const method = await this.method(req.providerRef);
      if (!method) return methodUnknown();
      const { type } = testToken(method.token);
      if (type !== req.type) return verifyFailed('payment_method_type_mismatch', `The payment method is a ${type}, not a ${req.type}.`);
      switch (type) {
        case 'card':
          await this.checkCard(req);
          return { status: 'verified' };
        case 'bank_account':
          if (method.bankAccountStatus === 'verified') return { status: 'verified' };
          await this.putMethod(req.providerRef, { ...method, bankAccountStatus: 'verifying' });
          return { status: 'verifying', method: 'microdeposits' };
        default:
          // A wallet verified its holder before handing out the token.
          return { status: 'verified' };
      }
    });
  }

  confirmMicroDeposits(req: ConfirmMicroDepositsRequest): Promise<VerifyOutcome> {
    return this.once<VerifyOutcome>('confirm-micro-deposits', req, async () => {
      const method = await this.method(req.providerRef);
      if (!method) return methodUnknown();
      if (method.bankAccountStatus !== 'verifying') return verifyFailed('not_verifying', 'The payment method has no micro-deposits to confirm.');
      // The account stays verifying: the customer may try the amounts again.
      if (!matchesMicroDeposits(req.amounts)) return verifyFailed('microdeposit_amounts_mismatch', 'The amounts do not match the micro-deposits.');
      await this.putMethod(req.providerRef, { ...method, bankAccountStatus: 'verified' });
      return { status: 'verified' };
    });
  }

  charge(req: ChargeRequest): Promise<ChargeOutcome> {
    return this.once<ChargeOutcome>('charge', req, async () => {
      const providerPaymentId = providerPaymentIdFor(req.idempotencyKey);
      const method = await this.method(req.providerRef);
      if (!method) return failed(providerPaymentId, paymentMethodUnknown());
      const token = testToken(method.token);
      const charged = token.charge({ providerPaymentId, now: req.now, idempotencyKey: req.idempotencyKey });
      const outcome: ChargeOutcome = charged.status === 'succeeded' && token.disputesAfterSuccess ? { ...charged, dispute: { reason: 'fraudulent' } } : charged;
      const { providerRef, amount, currency, idempotencyKey } = req;
      await this.record.put(paymentKey(providerPaymentId), { providerPaymentId, providerRef, amount, currency, idempotencyKey, outcome } satisfies Payment);
      return outcome;
    });
  }

  completeAction(req: CompleteActionRequest): Promise<ChargeOutcome> {
    return this.once<ChargeOutcome>('complete-action', req, () =>
      this.moveOn(req.providerPaymentId, 'requires_action', () =>
        req.outcome === 'succeeded' ? succeeded(req.providerPaymentId, req.now) : failed(req.providerPaymentId, authenticationFailed()),
      ),
    );
  }

  settle(req: SettleRequest): Promise<ChargeOutcome> {
    return this.once<ChargeOutcome>('settle', req, () =>
      this.moveOn(req.providerPaymentId, 'processing', () => succeeded(req.providerPaymentId, req.now)),
    );
  }

  /**
   * A refund of a succeeded payment, in the payment's currency, while the refunds made leave enough
   * of it. Its amount's cents pick the provider's behaviour (see refund-behaviours.ts): a decline,
   * an outage (nothing refunded, nothing remembered under the key), or a refund whose answer is
   * lost once (the same key asked again answers it).
   */
  async refund(req: RefundRequest): Promise<RefundOutcome> {
    const behaviour = refundBehaviourOf(req.amount);
    if (behaviour === 'outage') return refundFailed('provider_unavailable', 'The provider could not be reached; the refund may be asked again.', true);
    const outcome = await this.once<RefundOutcome>('refund', req, () =>
      behaviour === 'decline' ? Promise.resolve(refundFailed('refund_declined', 'The card issuer declined the refund.')) : this.makeRefund(req),
    );
    if (behaviour === 'answer_lost_once' && outcome.status === 'succeeded' && (await this.losesAnswer(req.idempotencyKey))) {
      return refundFailed('timeout', 'The provider did not answer in time; the refund may have been made.', true);
    }
    return outcome;
  }

  findRefund(req: FindRefundRequest): Promise<FoundRefund | undefined> {
    return this.serially(async () => {
      const made = (await this.refundsOf(req.providerPaymentId)).find((refund) => refund.reference === req.reference && !refund.failed);
      return made && { providerRefundId: made.providerRefundId, refundedAt: made.refundedAt ?? '' };
    });
  }

  /** A refund made that the bank returns later (Stripe's refund that fails after succeeding): false when there is no such refund standing. */
  failRefund(providerRefundId: string): Promise<boolean> {
    return this.serially(async () => {
      const key = `${REFUNDS}${providerRefundId}`;
      const refund = (await this.record.get(key)) as SandboxRefund | undefined;
      if (!refund || refund.failed) return false;
      await this.record.put(key, { ...refund, failed: true } satisfies SandboxRefund);
      return true;
    });
  }

  private async makeRefund(req: RefundRequest): Promise<RefundOutcome> {
    const payment = (await this.record.get(paymentKey(req.providerPaymentId))) as Payment | undefined;
    if (!payment || payment.outcome.status !== 'succeeded') return refundFailed('charge_not_refundable', 'Only a succeeded payment can be refunded.');
    if (payment.currency !== req.currency) return refundFailed('currency_mismatch', `The payment was made in ${payment.currency}.`);
    const refunded = (await this.refundsOf(req.providerPaymentId)).filter((made) => !made.failed).reduce((sum, made) => sum.plus(made.amount), new Big(0));
    if (new Big(req.amount).lte(0) || refunded.plus(req.amount).gt(payment.amount)) return refundFailed('amount_too_large', 'The refunds would exceed the payment.');
    const providerRefundId = providerRefundIdFor(req.idempotencyKey);
    const { providerPaymentId, amount, currency, idempotencyKey, reference } = req;
    const refundedAt = isoMillis(req.now);
    await this.record.put(`${REFUNDS}${providerRefundId}`, { providerRefundId, providerPaymentId, amount, currency, idempotencyKey, ...(reference && { reference, refundedAt }) } satisfies SandboxRefund);
    return { status: 'succeeded', providerRefundId, refundedAt };
  }

  /** True the first time only: the answer of that key is lost once. */
  private losesAnswer(idempotencyKey: string): Promise<boolean> {
    return this.serially(async () => {
      const key = `lost-answer:${idempotencyKey}`;
      if (await this.record.get(key)) return false;
      await this.record.put(key, true);
      return true;
    });
  }

  /** Every charge made, oldest first, in its current status. */
  charges(): Promise<SandboxCharge[]> {
    return this.serially(async () => (await this.payments()).map(({ outcome, ...charge }) => ({ ...charge, status: outcome.status })));
  }

  /** Every refund made, oldest first. */
  refunds(): Promise<SandboxRefund[]> {
    return this.serially(() => this.list<SandboxRefund>(REFUNDS));
  }

  /** Every card verification made, oldest first. */
  cardChecks(): Promise<SandboxCardCheck[]> {
    return this.serially(() => this.list<SandboxCardCheck>(CARD_CHECKS));
  }

  /** Answers what the request's idempotency key answered before, or computes, records and answers the outcome. */
  private once<T>(operation: string, req: { idempotencyKey: string }, compute: () => Promise<T>): Promise<T> {
    return this.serially(async () => {
      const answerKey = `answer:${operation}:${req.idempotencyKey}`;
      const request = requestDigest(req);
      const answered = (await this.record.get(answerKey)) as Answer<T> | undefined;
      if (answered) {
        if (answered.request !== request) throw new IdempotencyKeyReusedError(operation, req.idempotencyKey);
        return answered.outcome;
      }
      const outcome = await compute();
      await this.record.put(answerKey, { request, outcome } satisfies Answer<T>);
      return outcome;
    });
  }

  // One operation at a time: a retry racing its original finds the original's answer instead of charging again.
  private serially<T>(work: () => Promise<T>): Promise<T> {
    const result = this.queue.then(() => this.record.exclusively(work));
    this.queue = result.catch(() => undefined);
    return result;
  }

  /** Moves a payment waiting in `from` to its next outcome; a payment in any other state answers the outcome it has. */
  private async moveOn(providerPaymentId: string, from: 'requires_action' | 'processing', next: () => ChargeOutcome): Promise<ChargeOutcome> {
    const payment = (await this.record.get(paymentKey(providerPaymentId))) as Payment | undefined;
    if (!payment) return failed(providerPaymentId, paymentUnknown());
    if (payment.outcome.status !== from) return payment.outcome;
    const outcome = next();
    await this.record.put(paymentKey(providerPaymentId), { ...payment, outcome } satisfies Payment);
    return outcome;
  }

  private async checkCard({ providerRef, idempotencyKey }: VerifyRequest): Promise<void> {
    const check: SandboxCardCheck = {
      providerRef,
      idempotencyKey,
      operations: [
        { type: 'authorisation', amount: '0' },
        { type: 'reversal', amount: '0' },
      ],
    };
    await this.record.put(`${CARD_CHECKS}${idempotencyKey}`, check);
  }

  private async method(providerRef: string): Promise<HeldMethod | undefined> {
    return (await this.record.get(methodKey(providerRef))) as HeldMethod | undefined;
  }

  private putMethod(providerRef: string, method: HeldMethod): Promise<void> {
    return this.record.put(methodKey(providerRef), method);
  }

  private async refundsOf(providerPaymentId: string): Promise<SandboxRefund[]> {
    return (await this.list<SandboxRefund>(REFUNDS)).filter((refund) => refund.providerPaymentId === providerPaymentId);
  }

  private payments(): Promise<Payment[]> {
    return this.list<Payment>(PAYMENTS);
  }

  private async list<T>(prefix: string): Promise<T[]> {
    return (await this.record.list(prefix)) as T[];
  }
}

function testToken(name: string): TestToken {
  const token = TEST_TOKENS.get(name);
  if (!token) throw new Error(`The sandbox record names ${name}, which is no longer a test token`);
  return token;
}
