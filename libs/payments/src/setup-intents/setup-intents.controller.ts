import { Body, Controller, HttpCode, Param, Post } from '@nestjs/common';
import { ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import { API_KEY_AUTH, API_KEY_PROBLEMS, ApiAuthenticated, ApiIdempotent, ApiProblemResponses, ApiTag, Ctx, IDEMPOTENT_PROBLEMS, resourceController } from '@tally/http';
import { Commands } from '@tally/runtime';
import type { RequestContext } from '@tally/cells';
import { CancelSetupIntentDto, ConfirmSetupIntentDto, CreateSetupIntentDto } from './setup-intent.dto';
import { SetupIntentResponse } from './setup-intent.response';
import { setupIntentAggregate } from './setup-intent.aggregate';
import { setupIntentResource } from './setup-intent.resource';
import type { SetupIntentResource } from './setup-intent.view';
import { SetupIntents } from './setup-intents';
import { PAYMENT_METHODS_SECTION } from '../payments.api-sections';

const STATE_PROBLEMS = { 404: ['setup_intent.not_found'], 409: ['setup_intent.unexpected_state', 'request.concurrent_update'] };

/** Stripe's SetupIntent: capture a customer's method client-side, without charging it. */
@Controller('v1/setup-intents')
@ApiAuthenticated(API_KEY_AUTH)
@ApiTag(PAYMENT_METHODS_SECTION)
export class SetupIntentsController {
  constructor(
    private readonly commands: Commands,
    private readonly setupIntents: SetupIntents,
  ) {}

  @Post()
  @ApiOperation({
    summary: 'Create a setup intent',
    description: 'For client-side capture of a payment method: hand the `client_secret` to the client, which tokenises the method with the provider and confirms the intent with the token.',
  })
  @HttpCode(200)
  @ApiOkResponse({ type: SetupIntentResponse })
  @ApiIdempotent()
  @ApiProblemResponses(API_KEY_PROBLEMS, IDEMPOTENT_PROBLEMS, { 400: ['request.invalid_metadata'], 404: ['customer.not_found'] })
  create(@Ctx() context: RequestContext, @Body() body: CreateSetupIntentDto): Promise<SetupIntentResource> {
    const input = {
      customer_id: body.customer_id,
      payment_method_types: body.payment_method_types ?? ['card' as const],
      usage: body.usage ?? ('off_session' as const),
      set_as_default: body.set_as_default ?? false,
      description: body.description ?? null,
      metadata: body.metadata ?? {},
    };
    return this.setupIntents.create(context, input);
  }

  @Post(':id/confirm')
  @ApiOperation({
    summary: 'Confirm a setup intent',
    description: 'Attaches the token’s method to the intent’s customer (the refusals of the attach apply) and records it: `succeeded`, with `payment_method_id`.',
  })
  @HttpCode(200)
  @ApiOkResponse({ type: SetupIntentResponse })
  @ApiIdempotent()
  @ApiProblemResponses(API_KEY_PROBLEMS, IDEMPOTENT_PROBLEMS, {
    ...STATE_PROBLEMS,
    400: ['payment_method.card_number_refused'],
    422: ['setup_intent.payment_method_type_not_allowed', 'payment_method.token_invalid', 'payment_method.token_type_mismatch'],
  })
  confirm(@Ctx() context: RequestContext, @Param('id') id: string, @Body() body: ConfirmSetupIntentDto): Promise<SetupIntentResource> {
    return this.setupIntents.confirm(context, id, body);
  }

  @Post(':id/cancel')
  @ApiOperation({ summary: 'Cancel a setup intent', description: 'Only while it still requires a payment method.' })
  @HttpCode(200)
  @ApiOkResponse({ type: SetupIntentResponse })
  @ApiIdempotent()
  @ApiProblemResponses(API_KEY_PROBLEMS, IDEMPOTENT_PROBLEMS, STATE_PROBLEMS)
  async cancel(@Ctx() context: RequestContext, @Param('id') id: string, @Body() body: CancelSetupIntentDto): Promise<SetupIntentResource> {
    const data = { setup_intent_id: id, reason: body.cancellation_reason ?? null };
    return (await this.commands.send(setupIntentAggregate, id, { type: 'CancelSetupIntent', data }, context)).resource!;
  }
}

/** The retrieve (with `as_of`), from the resource's definition; setup intents are not listed. */
export const SetupIntentReadsController = resourceController(setupIntentResource, {
  path: 'v1/setup-intents', tag: PAYMENT_METHODS_SECTION, noun: 'setup intent', type: SetupIntentResponse, operations: 'SetupIntentsController',
  retrieve: {
    summary: 'Retrieve a setup intent',
    description: 'With the attached `payment_method_id` once it succeeded; with `as_of` as it was at that moment, rebuilt from its events (404 before it existed).',
    problems: { 404: ['setup_intent.not_found'] },
  },
});
