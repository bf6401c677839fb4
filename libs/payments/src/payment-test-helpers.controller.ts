import { Controller, HttpCode, Param, Post } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import { DomainError } from '@tally/kernel';
import { API_KEY_AUTH, API_KEY_PROBLEMS, ApiAuthenticated, ApiIdempotent, ApiProblemResponses, ApiTag, Ctx, IDEMPOTENT_PROBLEMS } from '@tally/http';
import type { RequestContext } from '@tally/cells';
import { PaymentResponse } from './dto/payment.response';
import { CompletePaymentActionCommand, SettlePaymentCommand } from './payment.handlers';
import type { PaymentResource } from './payment.view';

const PROBLEMS = { 400: ['test_helpers.livemode'], 404: ['payment.not_found'], 409: ['request.concurrent_update'] };

/** Stripe's test helpers for payments: what a customer or a bank would do, on demand, in the sandbox only. */
@Controller('v1/test-helpers/payments')
@ApiAuthenticated(API_KEY_AUTH)
@ApiTag('payments')
export class PaymentTestHelpersController {
  constructor(private readonly commands: CommandBus) {}

  @Post(':id/complete-action')
  @ApiOperation({ summary: 'Complete a payment’s 3DS action (sandbox)', description: 'As if the customer authenticated on the hosted page: the payment moves on (`payment.action_completed`) and succeeds.' })
  @HttpCode(200)
  @ApiOkResponse({ type: PaymentResponse })
  @ApiIdempotent()
  @ApiProblemResponses(API_KEY_PROBLEMS, IDEMPOTENT_PROBLEMS, { ...PROBLEMS, 409: [...PROBLEMS[409], 'payment.no_action'] })
  complete(@Ctx() context: RequestContext, @Param('id') id: string): Promise<PaymentResource> {
    return this.commands.execute(new CompletePaymentActionCommand(sandboxOnly(context), id, 'succeeded'));
  }

  @Post(':id/fail-action')
  @ApiOperation({ summary: 'Fail a payment’s 3DS action (sandbox)', description: 'As if the customer failed to authenticate: the payment fails with `authentication_failed`.' })
  @HttpCode(200)
  @ApiOkResponse({ type: PaymentResponse })
  @ApiIdempotent()
  @ApiProblemResponses(API_KEY_PROBLEMS, IDEMPOTENT_PROBLEMS, { ...PROBLEMS, 409: [...PROBLEMS[409], 'payment.no_action'] })
  fail(@Ctx() context: RequestContext, @Param('id') id: string): Promise<PaymentResource> {
    return this.commands.execute(new CompletePaymentActionCommand(sandboxOnly(context), id, 'failed'));
  }

  @Post(':id/settle')
  @ApiOperation({ summary: 'Settle a processing bank payment (sandbox)', description: 'As if the bank debit cleared: the payment succeeds and settles.' })
  @HttpCode(200)
  @ApiOkResponse({ type: PaymentResponse })
  @ApiIdempotent()
  @ApiProblemResponses(API_KEY_PROBLEMS, IDEMPOTENT_PROBLEMS, { ...PROBLEMS, 409: [...PROBLEMS[409], 'payment.not_processing'] })
  settle(@Ctx() context: RequestContext, @Param('id') id: string): Promise<PaymentResource> {
    return this.commands.execute(new SettlePaymentCommand(sandboxOnly(context), id));
  }
}

function sandboxOnly(context: RequestContext): RequestContext {
  if (context.environment !== 'sandbox') throw DomainError.invalid('test_helpers.livemode', 'Test helpers exist in the sandbox only; use a sandbox key (sk_test_…)');
  return context;
}
