import { applyDecorators, Body, Controller, HttpCode, Param, Post } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiParam, ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString, MaxLength } from 'class-validator';
import { DomainError } from '@tally/kernel';
import { API_KEY_AUTH, API_KEY_PROBLEMS, ApiAuthenticated, ApiIdempotent, ApiProblemResponses, ApiTag, Ctx, IDEMPOTENT_PROBLEMS, type ProblemCodes } from '@tally/http';
import type { RequestContext } from '@tally/cells';
import { Commands } from '@tally/runtime';
import { PaymentResponse } from './dto/payment.response';
import type { PaymentCommand } from './domain/payment.decider';
import { paymentAggregate } from './payment.aggregate';
import { PaymentFollowUps } from './payment-follow-ups';
import type { PaymentResource } from './payment.view';
import { PAYMENTS_SECTION } from './payments.api-sections';

class OpenDisputeDto {
  @ApiPropertyOptional({ type: String, maxLength: 100, example: 'fraudulent', description: 'The network’s reason (default `fraudulent`)' })
  @IsOptional() @IsString() @MaxLength(100) reason?: string;
}

const PROBLEMS = { 400: ['test_helpers.livemode'], 404: ['payment.not_found'], 409: ['request.concurrent_update'] };

/** A test helper's answer, the payment, and its refusals: every helper's and those of its step. */
const ApiTestHelper = (problems: ProblemCodes): MethodDecorator =>
  // In the order they would be written above the method, which applies the last first.
  applyDecorators(ApiProblemResponses(API_KEY_PROBLEMS, IDEMPOTENT_PROBLEMS, PROBLEMS, problems), ApiIdempotent(), ApiOkResponse({ type: PaymentResponse }), HttpCode(200));

/** Stripe's test helpers for payments: what a customer or a bank would do, on demand, in the sandbox only. */
@Controller('v1/test-helpers/payments')
@ApiAuthenticated(API_KEY_AUTH)
@ApiTag(PAYMENTS_SECTION)
export class PaymentTestHelpersController {
  constructor(
    private readonly followUps: PaymentFollowUps,
    private readonly commands: Commands,
  ) {}

  @Post(':id/complete-action')
  @ApiOperation({ summary: 'Complete a payment’s 3DS action (sandbox)', description: 'As if the customer authenticated on the hosted page: the payment moves on (`payment.action_completed`) and succeeds.' })
  @ApiTestHelper({ 409: ['payment.no_action'] })
  complete(@Ctx() context: RequestContext, @Param('id') id: string): Promise<PaymentResource> {
    return this.followUps.completeAction(sandboxOnly(context), id, 'succeeded');
  }

  @Post(':id/fail-action')
  @ApiOperation({ summary: 'Fail a payment’s 3DS action (sandbox)', description: 'As if the customer failed to authenticate: the payment fails with `authentication_failed`.' })
  @ApiTestHelper({ 409: ['payment.no_action'] })
  fail(@Ctx() context: RequestContext, @Param('id') id: string): Promise<PaymentResource> {
    return this.followUps.completeAction(sandboxOnly(context), id, 'failed');
  }

  @Post(':id/dispute')
  @ApiOperation({ summary: 'Open a dispute on a payment (sandbox)', description: 'As if the customer’s bank charged the payment back: `payment.charged_back`; decide it with `/dispute/won` or `/dispute/lost`.' })
  @ApiTestHelper({ 409: ['payment.not_disputable', 'payment.already_disputed'] })
  dispute(@Ctx() context: RequestContext, @Param('id') id: string, @Body() body: OpenDisputeDto): Promise<PaymentResource> {
    return this.disputed(sandboxOnly(context), id, (at) => ({ type: 'OpenDispute', data: { payment_id: id, reason: body.reason ?? 'fraudulent', at } }));
  }

  @Post(':id/dispute/:outcome')
  @ApiOperation({ summary: 'Decide a payment’s dispute (sandbox)', description: '`won`: the money returns and the payment is `succeeded` again (`payment.dispute_won`); `lost`: it stays `charged_back` (`payment.dispute_lost`).' })
  @ApiParam({ name: 'outcome', enum: ['won', 'lost'] })
  @ApiTestHelper({ 404: ['route.not_found'], 409: ['payment.no_open_dispute'] })
  decide(@Ctx() context: RequestContext, @Param('id') id: string, @Param('outcome') outcome: string): Promise<PaymentResource> {
    if (outcome !== 'won' && outcome !== 'lost') throw DomainError.notFound('route.not_found', 'A dispute is decided won or lost');
    return this.disputed(sandboxOnly(context), id, (at) => ({ type: 'DecideDispute', data: { payment_id: id, outcome, at } }));
  }

  /** `at`: the time on the payment's clock. */
  private async disputed(context: RequestContext, id: string, step: (at: string) => PaymentCommand): Promise<PaymentResource> {
    return (await this.commands.send(paymentAggregate, id, step, context)).resource!;
  }

  @Post(':id/settle')
  @ApiOperation({ summary: 'Settle a processing bank payment (sandbox)', description: 'As if the bank debit cleared: the payment succeeds and settles.' })
  @ApiTestHelper({ 409: ['payment.not_processing'] })
  settle(@Ctx() context: RequestContext, @Param('id') id: string): Promise<PaymentResource> {
    return this.followUps.settle(sandboxOnly(context), id);
  }
}

export function sandboxOnly(context: RequestContext): RequestContext {
  if (context.environment !== 'sandbox') throw DomainError.invalid('test_helpers.livemode', 'Test helpers exist in the sandbox only; use a sandbox key (sk_test_…)');
  return context;
}
