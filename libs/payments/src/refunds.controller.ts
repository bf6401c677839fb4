import { Body, Controller, HttpCode, Param, Post, UseInterceptors } from '@nestjs/common';
import { ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import { API_KEY_AUTH, API_KEY_PROBLEMS, ApiAuthenticated, ApiIdempotent, ApiProblemResponses, ApiTag, Ctx, IDEMPOTENT_PROBLEMS, resourceController } from '@tally/http';
import type { RequestContext } from '@tally/cells';
import { CreditNoteResponse, PdfUrlInterceptor, type CreditNoteResource } from '@tally/invoicing';
import { CreditNoteResolutions } from './credit-note-resolutions';
import { CreateRefundDto, ResolveCreditNoteDto } from './dto/refund.dto';
import { RefundResponse } from './dto/refund.response';
import { refundResource } from './refund.resource';
import type { RefundResource } from './refund.view';
import { Refunds } from './refunds';
import { REFUNDS_SECTION } from './payments.api-sections';

@Controller('v1')
@ApiAuthenticated(API_KEY_AUTH)
@ApiTag(REFUNDS_SECTION)
export class RefundsController {
  constructor(
    private readonly refunds: Refunds,
    private readonly resolutions: CreditNoteResolutions,
  ) {}

  @Post('payments/:id/refunds')
  @ApiOperation({
    summary: 'Refund a payment',
    description:
      'Returns `amount` (default: all that is left) of a `succeeded` or `partially_refunded` payment, inside its provider’s refund window (180 days), to the method it was paid with or, with `destination: wallet`, to the customer’s wallet in the payment’s currency (a payment from the wallet always goes back to it). ' +
      'The refunds of a payment never add up to more than it took, also when asked at once. Issues a credit note against the payment’s invoice (outcome `refund`, or `credit_balance` to the wallet) and moves the payment to `partially_refunded` or `refunded`. ' +
      'Answers the refund after its first attempt: `succeeded`, or `pending` with `failure_reason` and `next_attempt_at` while the provider refuses (5 attempts over about 24 hours, then `failed` and the credit note `pending_manual`).',
  })
  @HttpCode(200)
  @ApiOkResponse({ type: RefundResponse })
  @ApiIdempotent()
  @ApiProblemResponses(API_KEY_PROBLEMS, IDEMPOTENT_PROBLEMS, {
    400: ['refund.invalid'],
    404: ['payment.not_found'],
    409: ['refund.payment_not_refundable', 'refund.amount_exceeds_refundable', 'credit_note.exceeds_invoice', 'request.concurrent_update'],
    422: ['refund.window_closed'],
  })
  create(@Ctx() context: RequestContext, @Param('id') paymentId: string, @Body() body: CreateRefundDto): Promise<RefundResource> {
    return this.refunds.create(context, paymentId, body);
  }

  @Post('credit-notes/:id/resolve')
  @ApiOperation({
    summary: 'Resolve a credit note whose refund failed',
    description:
      'Closes a `pending_manual` credit note (its refund failed on every attempt): `refunded_out_of_band` (the money was returned another way: outcome `refund`, `succeeded`) or `credited_to_wallet` (the amount goes to the customer’s wallet in its currency now: outcome `credit_balance`). The same resolution again changes nothing.',
  })
  @HttpCode(200)
  @ApiOkResponse({ type: CreditNoteResponse })
  @ApiIdempotent()
  @ApiProblemResponses(API_KEY_PROBLEMS, IDEMPOTENT_PROBLEMS, { 400: ['request.invalid_body'], 404: ['credit_note.not_found'], 409: ['credit_note.not_pending_manual', 'request.concurrent_update'] })
  @UseInterceptors(PdfUrlInterceptor)
  resolve(@Ctx() context: RequestContext, @Param('id') creditNoteId: string, @Body() body: ResolveCreditNoteDto): Promise<CreditNoteResource> {
    return this.resolutions.resolve(context, creditNoteId, body.resolution);
  }
}

/** The list and the retrieve (with `as_of`), from the resource's definition. */
export const RefundReadsController = resourceController(refundResource, {
  path: 'v1/refunds',
  tag: REFUNDS_SECTION,
  noun: 'refund',
  type: RefundResponse,
  operations: 'RefundsController',
  list: { summary: 'List refunds', description: 'Newest first by default; filter by payment, invoice, status and creation time.' },
  retrieve: { summary: 'Retrieve a refund', description: 'With its attempts so far; with `as_of` as it was at that moment, rebuilt from its events (404 before it existed).', problems: { 404: ['refund.not_found'] } },
});
