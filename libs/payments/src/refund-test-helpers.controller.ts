import { Controller, HttpCode, Inject, Param, Post } from '@nestjs/common';
import { ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import { DomainError } from '@tally/kernel';
import { API_KEY_AUTH, API_KEY_PROBLEMS, ApiAuthenticated, ApiIdempotent, ApiProblemResponses, ApiTag, Ctx, IDEMPOTENT_PROBLEMS } from '@tally/http';
import type { RequestContext } from '@tally/cells';
import { CommandRuntime, Commands } from '@tally/runtime';
import type { RecordRefundReversal } from './domain/refund.decider';
import { RefundResponse } from './dto/refund.response';
import { sandboxOnly } from './payment-test-helpers.controller';
import { PAYMENT_PROVIDER, type PaymentProvider } from './provider/payment-provider.port';
import { SandboxPaymentProvider } from './provider/sandbox/sandbox-provider';
import { refundAggregate } from './refund.aggregate';
import type { RefundResource } from './refund.view';
import { REFUNDS_SECTION } from './payments.api-sections';

const notReversible = (id: string) => DomainError.conflict('refund.not_reversible', `Refund ${id} has no refund at the provider standing; only a succeeded refund to the card can fail later`);

/** The sandbox's notice that a refund made failed after all, as a provider's webhook would bring it (Stripe's `charge.refund.updated` to `failed`). */
@Controller('v1/test-helpers/refunds')
@ApiAuthenticated(API_KEY_AUTH)
@ApiTag(REFUNDS_SECTION)
export class RefundTestHelpersController {
  constructor(
    private readonly runtime: CommandRuntime,
    private readonly commands: Commands,
    @Inject(PAYMENT_PROVIDER) private readonly provider: PaymentProvider,
  ) {}

  @Post(':id/fail')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Fail a refund after it succeeded (sandbox)',
    description: 'As if the bank returned a refund the provider had made: the refund is `pending` again with its next attempt (`refund.failed`), or `failed` when that was its last; its credit note’s `refund_status` is `failed`.',
  })
  @ApiOkResponse({ type: RefundResponse })
  @ApiIdempotent()
  @ApiProblemResponses(API_KEY_PROBLEMS, IDEMPOTENT_PROBLEMS, { 400: ['test_helpers.livemode'], 404: ['refund.not_found'], 409: ['refund.not_reversible', 'request.concurrent_update'] })
  async fail(@Ctx() context: RequestContext, @Param('id') id: string): Promise<RefundResource> {
    const sandbox = sandboxOnly(context);
    const refund = await this.runtime.load(this.runtime.cellOf(sandbox), refundAggregate, id, sandbox);
    if (refund.state.status === 'none') throw refundAggregate.notFound(id);
    const providerRefundId = refund.state.providerRefundId;
    if (!providerRefundId || !(this.provider instanceof SandboxPaymentProvider) || !(await this.provider.failRefund(providerRefundId))) throw notReversible(id);
    const failure = { kind: 'declined', code: 'refund_failed', message: 'The bank returned the refund.' } as const;
    const reversal = (at: string): RecordRefundReversal => ({ type: 'RecordRefundReversal', data: { refund_id: id, provider_refund_id: providerRefundId, failure, at } });
    return (await this.commands.send(refundAggregate, id, reversal, sandbox)).resource!;
  }
}
