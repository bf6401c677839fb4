import { Body, Controller, Get, HttpCode, Param, Post } from '@nestjs/common';
import { ApiExtraModels, ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import { API_KEY_AUTH, API_KEY_PROBLEMS, ApiAuthenticated, ApiIdempotent, ApiProblemResponses, ApiTag, Ctx, IDEMPOTENT_PROBLEMS, resourceController } from '@tally/http';
import { Commands } from '@tally/runtime';
import type { RequestContext } from '@tally/cells';
import { PayInvoiceDto } from './dto/payment.dto';
import { PaymentActionUrlResponse, PaymentResponse, ProviderSdkActionResponse, RedirectActionResponse } from './dto/payment.response';
import { InvoicePayer } from './invoice-payer';
import { paymentAggregate } from './payment.aggregate';
import { PaymentOutcomeOnInvoice } from './payment-outcome-on-invoice';
import { PaymentActionUrls } from './payment-action-urls';
import { paymentResource } from './payment.resource';
import type { PaymentResource } from './payment.view';
import { PAYMENTS_SECTION } from './payments.api-sections';

const ETAG = { ETag: { description: 'The payment’s revision', schema: { type: 'string', example: 'W/"2"' } } };

@Controller('v1')
@ApiAuthenticated(API_KEY_AUTH)
@ApiTag(PAYMENTS_SECTION)
@ApiExtraModels(RedirectActionResponse, ProviderSdkActionResponse)
export class PaymentsController {
  constructor(
    private readonly payer: InvoicePayer,
    private readonly commands: Commands,
    private readonly outcomes: PaymentOutcomeOnInvoice,
    private readonly actionUrls: PaymentActionUrls,
  ) {}

  @Post('invoices/:id/pay')
  @ApiOperation({
    summary: 'Pay an invoice',
    description:
      'Charges what is due with `payment_method_id`, else the subscription’s own method, else the customer’s default, and answers the payment as the provider left it: `succeeded`, `processing` (bank debits), `requires_action` (3DS: send the customer to `next_action.url`; with `return_url` the page sends them back there) or `failed` (`last_error`). With `source: wallet`, pays from the customer’s wallet in the invoice’s currency instead: a `succeeded` payment with `provider: wallet` of as much as its balance covers. One attempt at a time: while one waits for its outcome, another answers 409.',
  })
  @HttpCode(200)
  @ApiOkResponse({ type: PaymentResponse })
  @ApiIdempotent()
  @ApiProblemResponses(API_KEY_PROBLEMS, IDEMPOTENT_PROBLEMS, {
    404: ['invoice.not_found'],
    400: ['invoice.invalid_payment_amount', 'payment.invalid_return_url', 'payment.source_conflict'],
    409: ['invoice.not_payable', 'invoice.payment_in_progress', 'invoice.payment_exceeds_amount_due', 'payment.no_payment_method', 'payment.no_wallet', 'wallet.insufficient_balance', 'request.concurrent_update'],
    422: ['payment.payment_method_unusable'],
  })
  pay(@Ctx() context: RequestContext, @Param('id') invoiceId: string, @Body() body: PayInvoiceDto): Promise<PaymentResource> {
    return this.payer.pay(context, invoiceId, { paymentMethodId: body.payment_method_id, source: body.source, reason: 'manual', amount: body.amount, returnUrl: body.return_url });
  }

  @Post('payments/:id/cancel')
  @ApiOperation({ summary: 'Cancel a payment', description: 'Only a `pending` payment or one waiting for the customer’s action; its invoice stays payable.' })
  @HttpCode(200)
  @ApiOkResponse({ type: PaymentResponse })
  @ApiIdempotent()
  @ApiProblemResponses(API_KEY_PROBLEMS, IDEMPOTENT_PROBLEMS, { 404: ['payment.not_found'], 409: ['payment.not_cancelable', 'request.concurrent_update'] })
  async cancel(@Ctx() context: RequestContext, @Param('id') id: string): Promise<PaymentResource> {
    const canceled = await this.commands.send(paymentAggregate, id, { type: 'CancelPayment', data: { payment_id: id } }, context);
    await this.outcomes.follow(context, canceled);
    return canceled.resource!;
  }

  @Get('payments/:id/action-url')
  @ApiOperation({ summary: 'Get the hosted action page of a payment', description: 'A fresh signed link, valid for a day, to the page where the customer authenticates a payment in `requires_action`.' })
  @ApiOkResponse({ type: PaymentActionUrlResponse })
  @ApiProblemResponses(API_KEY_PROBLEMS, { 404: ['payment.not_found'], 409: ['payment.no_action'] })
  actionUrl(@Ctx() context: RequestContext, @Param('id') id: string): Promise<PaymentActionUrlResponse> {
    return this.actionUrls.of(context, id);
  }
}

/** The list and the retrieve (with `as_of`), from the resource's definition. */
export const PaymentReadsController = resourceController(paymentResource, {
  path: 'v1/payments', tag: PAYMENTS_SECTION, noun: 'payment', type: PaymentResponse, etag: ETAG, operations: 'PaymentsController',
  list: { summary: 'List payments', description: 'Newest first by default; filter by status, invoice, customer and creation time.' },
  retrieve: { summary: 'Retrieve a payment', description: 'With `next_action` while it waits for the customer and `last_error` once it failed; with `as_of` as it was at that moment, rebuilt from its events (404 before it existed).', problems: { 404: ['payment.not_found'] } },
});
