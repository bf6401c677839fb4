import { Body, Controller, Delete, Headers, HttpCode, Param, Patch, Post, Res } from '@nestjs/common';
import { ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import type { Response } from 'express';
import { customerResource, toAddress } from '@tally/customers';
import { API_KEY_AUTH, API_KEY_PROBLEMS, ApiAuthenticated, ApiIdempotent, ApiProblemResponses, ApiTag, ApiUpdate, Ctx, IDEMPOTENT_PROBLEMS, parseIfMatch, resourceController, withRevision } from '@tally/http';
import type { RequestContext } from '@tally/cells';
import { AttachPaymentMethodDto, ConfirmMicroDepositsDto, UpdatePaymentMethodDto } from './dto/payment-method.dto';
import { PaymentMethodResponse } from './dto/payment-method.response';
import { PaymentMethods, type PaymentMethodWritten } from './payment-methods';
import { paymentMethodResource } from './payment-method.resource';
import type { PaymentMethodResource } from './payment-method.view';
import { PAYMENT_METHODS_SECTION } from './payments.api-sections';

const ETAG = { ETag: { description: 'The payment method’s revision, for `If-Match`', schema: { type: 'string', example: 'W/"1"' } } };
const STATE_PROBLEMS = { 404: ['payment_method.not_found'], 409: ['payment_method.detached', 'request.concurrent_update'] };

@Controller('v1')
@ApiAuthenticated(API_KEY_AUTH)
@ApiTag(PAYMENT_METHODS_SECTION)
export class PaymentMethodsController {
  constructor(private readonly methods: PaymentMethods) {}

  @Post('customers/:id/payment-methods')
  @ApiOperation({
    summary: 'Attach a payment method to a customer',
    description:
      'Takes a token from client-side tokenisation (in the sandbox, a test token; see the testing guide) and answers the method with what the provider validated: brand, last four digits and expiry for cards. Only the object matching `type` is set. A token that looks like a card number is refused and never stored.',
  })
  @HttpCode(200)
  @ApiOkResponse({ type: PaymentMethodResponse, headers: ETAG })
  @ApiIdempotent()
  @ApiProblemResponses(API_KEY_PROBLEMS, IDEMPOTENT_PROBLEMS, {
    400: ['payment_method.card_number_refused', 'request.invalid_metadata'],
    404: ['customer.not_found'],
    409: ['request.concurrent_update'],
    422: ['payment_method.token_invalid', 'payment_method.token_type_mismatch'],
  })
  async attach(@Ctx() context: RequestContext, @Param('id') customerId: string, @Body() body: AttachPaymentMethodDto, @Res({ passthrough: true }) response: Response): Promise<PaymentMethodResource> {
    const input = { type: body.type, token: body.token, set_as_default: body.set_as_default ?? false, billing_address: toAddress(body.billing_address), metadata: body.metadata ?? {} };
    return withEtag(response, await this.methods.attach(context, customerId, input));
  }

  @Patch('payment-methods/:id')
  @ApiOperation({
    summary: 'Update a payment method',
    description: 'The billing address is merged field by field and metadata key by key. `is_default: true` makes it the customer’s default and demotes the previous one; the customer’s `default_payment_method_id` follows.',
  })
  @ApiUpdate('payment method', { type: PaymentMethodResponse, headers: ETAG }, STATE_PROBLEMS, { 400: ['request.invalid_metadata'] })
  async update(
    @Ctx() context: RequestContext,
    @Param('id') id: string,
    @Body() body: UpdatePaymentMethodDto,
    @Headers('if-match') ifMatch: string | undefined,
    @Res({ passthrough: true }) response: Response,
  ): Promise<PaymentMethodResource> {
    const patch = {
      ...(body.billing_address !== undefined && { billing_address: body.billing_address }),
      ...(body.metadata !== undefined && { metadata: body.metadata }),
      ...(body.is_default !== undefined && { is_default: body.is_default }),
    };
    return withEtag(response, await this.methods.update(context, id, patch, parseIfMatch(ifMatch)));
  }

  @Delete('payment-methods/:id')
  @ApiOperation({
    summary: 'Detach a payment method',
    description: 'The method leaves its customer (`status: detached`, `customer_id: null`); detaching the default leaves the customer without one. Refused while a subscription that may still bill charges this method, as its own or as the customer’s default when it names none.',
  })
  @ApiOkResponse({ type: PaymentMethodResponse, headers: ETAG })
  @ApiProblemResponses(API_KEY_PROBLEMS, { 404: ['payment_method.not_found'], 409: ['payment_method.in_use', 'request.concurrent_update'] })
  async detach(@Ctx() context: RequestContext, @Param('id') id: string, @Res({ passthrough: true }) response: Response): Promise<PaymentMethodResource> {
    return withEtag(response, await this.methods.detach(context, id));
  }

  @Post('payment-methods/:id/verify')
  @ApiOperation({
    summary: 'Verify a payment method',
    description:
      'Cards: a zero-amount authorisation and its reversal, then `verified`. Bank accounts: two micro-deposits are sent and `bank_account.status` is `verifying` until their amounts are confirmed. Wallets were verified when attached. `payment_method.verified` fires once verified.',
  })
  @HttpCode(200)
  @ApiOkResponse({ type: PaymentMethodResponse, headers: ETAG })
  @ApiIdempotent()
  @ApiProblemResponses(API_KEY_PROBLEMS, IDEMPOTENT_PROBLEMS, { ...STATE_PROBLEMS, 409: [...STATE_PROBLEMS[409], 'payment_method.expired'], 422: ['payment_method.verification_failed'] })
  async verify(@Ctx() context: RequestContext, @Param('id') id: string, @Res({ passthrough: true }) response: Response): Promise<PaymentMethodResource> {
    return withEtag(response, await this.methods.verify(context, id));
  }

  @Post('payment-methods/:id/verify/confirm')
  @ApiOperation({ summary: 'Confirm the micro-deposits of a bank account', description: 'The two amounts deposited on the account; right amounts verify it.' })
  @HttpCode(200)
  @ApiOkResponse({ type: PaymentMethodResponse, headers: ETAG })
  @ApiIdempotent()
  @ApiProblemResponses(API_KEY_PROBLEMS, IDEMPOTENT_PROBLEMS, {
    ...STATE_PROBLEMS,
    409: [...STATE_PROBLEMS[409], 'payment_method.expired', 'payment_method.not_verifying'],
    422: ['payment_method.microdeposits_mismatch'],
  })
  async confirm(@Ctx() context: RequestContext, @Param('id') id: string, @Body() body: ConfirmMicroDepositsDto, @Res({ passthrough: true }) response: Response): Promise<PaymentMethodResource> {
    return withEtag(response, await this.methods.verify(context, id, body.amounts));
  }
}

/** A customer's list (unknown customer: 404) and the retrieve (with `as_of`), from the resource's definition. */
export const PaymentMethodReadsController = resourceController(paymentMethodResource, {
  path: 'v1/payment-methods', tag: PAYMENT_METHODS_SECTION, noun: 'payment method', type: PaymentMethodResponse, etag: ETAG, operations: 'PaymentMethodsController',
  list: {
    summary: 'List a customer’s payment methods',
    description: 'The methods attached to the customer, newest first by default; detached ones are not listed.',
    of: { path: 'v1/customers/:id/payment-methods', param: 'id', parent: customerResource, field: 'customer_id', problems: { 404: ['customer.not_found'] } },
  },
  retrieve: {
    summary: 'Retrieve a payment method',
    description: 'An attached, expired or detached payment method, with `is_default` as its customer has it; with `as_of` as both were at that moment, rebuilt from their events (404 before it existed).',
    problems: { 404: ['payment_method.not_found'] },
  },
});

const withEtag = (response: Response, written: PaymentMethodWritten): PaymentMethodResource => withRevision(response, written).method;
