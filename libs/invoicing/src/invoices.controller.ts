import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import { DomainError, toUtcTimestamp } from '@tally/kernel';
import { API_KEY_AUTH, API_KEY_PROBLEMS, ApiAuthenticated, ApiIdempotent, ApiProblemResponses, ApiTag, Ctx, IDEMPOTENT_PROBLEMS } from '@tally/http';
import type { RequestContext } from '@tally/cells';
import { PreviewInvoiceDto } from './dto/invoice-preview.dto';
import { InvoicePreviewResponse } from './dto/invoice-preview.response';
import { PreviewInvoiceQuery, type PreviewRequest } from './invoice-preview';
import { presentPreview } from './invoice-preview.presenter';

@Controller('v1/invoices')
@ApiAuthenticated(API_KEY_AUTH)
@ApiTag('invoices')
export class InvoicesController {
  constructor(private readonly queries: QueryBus) {}

  /** Stripe's "create preview invoice": what a plan would bill a customer for one period. Writes nothing. */
  @Post('preview')
  @ApiOperation({
    summary: 'Preview an invoice',
    description:
      'What a plan would bill for one period: each component priced at the given quantities and usage, the coupons applied (subscription-level, then plan-level, then promotional), and tax for a customer, by id or by country and tax IDs. ' +
      'Nothing is written and no coupon is redeemed.',
  })
  @HttpCode(200)
  @ApiOkResponse({ type: InvoicePreviewResponse })
  @ApiIdempotent()
  @ApiProblemResponses(API_KEY_PROBLEMS, IDEMPOTENT_PROBLEMS, {
    400: ['invoice_preview.invalid_quantity', 'invoice_preview.unknown_meter', 'invoice_preview.duplicate_coupon', 'invoice_preview.customer_given_twice', 'coupon.currency_mismatch'],
    404: ['plan.not_found', 'coupon.not_found', 'customer.not_found'],
    409: ['plan.deleted', 'coupon.expired', 'coupon.max_redemptions_reached'],
  })
  async preview(@Ctx() context: RequestContext, @Body() body: PreviewInvoiceDto): Promise<InvoicePreviewResponse> {
    if (body.customer_id !== undefined && body.customer_details !== undefined) {
      throw DomainError.invalid('invoice_preview.customer_given_twice', 'Send customer_id or customer_details, not both');
    }
    const details = body.customer_details;
    const request: PreviewRequest = {
      plan: body.plan,
      customer: body.customer_id ? { id: body.customer_id } : details ? { country: details.address.country, region: details.address.region ?? null, tax_ids: details.tax_ids ?? [] } : null,
      quantities: body.quantities ?? {},
      usage: body.usage ?? {},
      discounts: (body.discounts ?? []).map((discount) => ({ coupon: discount.coupon, level: discount.level ?? 'subscription' })),
      period_start: body.period_start && toUtcTimestamp(body.period_start),
    };
    return presentPreview(await this.queries.execute(new PreviewInvoiceQuery(context, request)));
  }
}
