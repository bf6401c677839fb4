import { Body, Controller, Delete, Headers, HttpCode, Param, Patch, Post, Res, UseInterceptors } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import type { Response } from 'express';
import { DomainError, toUtcTimestamp } from '@tally/kernel';
import {
  API_KEY_AUTH,
  API_KEY_PROBLEMS,
  ApiAuthenticated,
  ApiIdempotent,
  ApiIfMatch,
  ApiProblemResponses,
  ApiTag,
  Ctx,
  IDEMPOTENT_PROBLEMS,
  parseIfMatch,
  resourceController,
  withRevision,
} from '@tally/http';
import { Commands } from '@tally/runtime';
import type { RequestContext } from '@tally/cells';
import { CreateInvoiceDto, InvoiceLineDto, IssueCreditNoteDto, UpdateInvoiceDto } from './dto/invoice.dto';
import { CreditNoteResponse, InvoiceResponse } from './dto/invoice.response';
import type { UpdateInvoiceDraft } from './domain/invoice.decider';
import { invoiceAggregate } from './invoice.aggregate';
import { InvoiceDrafts, written, type InvoiceWritten, type LineRequest } from './invoice-drafts';
import { InvoiceFinalizer } from './invoice-finalizer';
import { invoiceResource } from './invoice.resource';
import type { CreditNoteResource, InvoiceResource } from './invoice.view';
import { PreviewInvoiceDto } from './dto/invoice-preview.dto';
import { InvoicePreviewResponse } from './dto/invoice-preview.response';
import { PreviewInvoiceQuery, type PreviewRequest } from './invoice-preview';
import { presentPreview } from './invoice-preview.presenter';
import { PdfUrlInterceptor } from './documents/pdf-url.interceptor';
import { INVOICES_SECTION } from './invoicing.api-sections';

const ETAG = { ETag: { description: 'The invoice’s revision, for `If-Match`', schema: { type: 'string', example: 'W/"3"' } } };

@Controller('v1/invoices')
@ApiAuthenticated(API_KEY_AUTH)
@ApiTag(INVOICES_SECTION)
@UseInterceptors(PdfUrlInterceptor)
export class InvoicesController {
  constructor(
    private readonly queries: QueryBus,
    private readonly commands: Commands,
    private readonly drafts: InvoiceDrafts,
    private readonly finalizer: InvoiceFinalizer,
  ) {}

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
    400: ['invoice_preview.invalid_quantity', 'invoice_preview.unknown_meter', 'invoice_preview.duplicate_coupon', 'invoice_preview.customer_given_twice', 'invoice_preview.plan_given_twice', 'coupon.currency_mismatch'],
    404: ['plan.not_found', 'coupon.not_found', 'customer.not_found'],
    409: ['plan.deleted', 'coupon.expired', 'coupon.max_redemptions_reached'],
  })
  async preview(@Ctx() context: RequestContext, @Body() body: PreviewInvoiceDto): Promise<InvoicePreviewResponse> {
    if (body.customer_id !== undefined && body.customer_details !== undefined) {
      throw DomainError.invalid('invoice_preview.customer_given_twice', 'Send customer_id or customer_details, not both');
    }
    if (body.plan_code !== undefined && body.plan !== undefined) {
      throw DomainError.invalid('invoice_preview.plan_given_twice', 'Send plan_code, or plan (its earlier name), not both');
    }
    const details = body.customer_details;
    const request: PreviewRequest = {
      plan: (body.plan_code ?? body.plan)!,
      customer: body.customer_id ? { id: body.customer_id } : details ? { country: details.address.country, region: details.address.region ?? null, tax_ids: details.tax_ids ?? [] } : null,
      quantities: body.quantities ?? {},
      usage: body.usage ?? {},
      discounts: (body.discounts ?? []).map((discount) => ({ coupon: discount.coupon, level: discount.level ?? 'subscription' })),
      period_start: body.period_start && toUtcTimestamp(body.period_start),
    };
    return presentPreview(await this.queries.execute(new PreviewInvoiceQuery(context, request)));
  }

  @Post()
  @ApiOperation({
    summary: 'Create an invoice',
    description:
      'A one-off draft for a customer of the tenant, optionally with its first lines. Lines can be added and removed, and the draft changed, until it is finalised. ' +
      'With `auto_charge` (default) the customer’s payment method is charged once it is finalised; false sends it for payment (review flows).',
  })
  @HttpCode(200)
  @ApiOkResponse({ type: InvoiceResponse, headers: ETAG })
  @ApiIdempotent()
  @ApiProblemResponses(API_KEY_PROBLEMS, IDEMPOTENT_PROBLEMS, {
    400: ['request.invalid_metadata', 'money.unknown_currency', 'invoice.invalid_line', 'invoice.too_many_lines', 'invoice.due_at_in_past', 'invoice.due_given_twice'],
    404: ['customer.not_found'],
  })
  async create(@Ctx() context: RequestContext, @Body() body: CreateInvoiceDto, @Res({ passthrough: true }) response: Response): Promise<InvoiceResource> {
    checkDueGivenOnce(body);
    const input = {
      customer_id: body.customer_id,
      currency: body.currency,
      auto_charge: body.auto_charge ?? true,
      tax_behavior: body.tax_behavior ?? 'exclusive',
      description: body.description ?? null,
      due_at: body.due_at === undefined ? null : toUtcTimestamp(body.due_at),
      days_until_due: body.days_until_due ?? null,
      metadata: body.metadata ?? {},
      lines: (body.lines ?? []).map(lineRequest),
    };
    return withEtag(response, await this.drafts.create(context, input));
  }

  @Patch(':id')
  @ApiOperation({
    summary: 'Update a draft invoice',
    description:
      'Description, due date (or days until due), auto_charge and metadata of a draft; fields left out keep their value. Once finalised only metadata may change (409 `invoice.not_draft` otherwise): corrections go through credit notes.',
  })
  @ApiOkResponse({ type: InvoiceResponse, headers: ETAG })
  @ApiIfMatch('invoice')
  @ApiProblemResponses(API_KEY_PROBLEMS, {
    400: ['request.invalid_metadata', 'request.invalid_if_match', 'invoice.due_at_in_past', 'invoice.due_given_twice'],
    404: ['invoice.not_found'],
    409: ['invoice.not_draft', 'request.concurrent_update'],
    412: ['request.precondition_failed'],
  })
  async update(
    @Ctx() context: RequestContext,
    @Param('id') id: string,
    @Body() body: UpdateInvoiceDto,
    @Headers('if-match') ifMatch: string | undefined,
    @Res({ passthrough: true }) response: Response,
  ): Promise<InvoiceResource> {
    checkDueGivenOnce(body);
    const patch = {
      ...(body.description !== undefined && { description: body.description }),
      ...(body.due_at !== undefined && { due_at: body.due_at === null ? null : toUtcTimestamp(body.due_at) }),
      ...(body.days_until_due !== undefined && { days_until_due: body.days_until_due }),
      ...(body.auto_charge !== undefined && { auto_charge: body.auto_charge }),
      ...(body.metadata !== undefined && { metadata: body.metadata }),
    };
    return withEtag(response, written(await this.commands.send(invoiceAggregate, id, (now): UpdateInvoiceDraft => ({ type: 'UpdateInvoiceDraft', data: { invoice_id: id, ...patch, now } }), context, { expectedRevision: parseIfMatch(ifMatch) })));
  }

  @Post(':id/lines')
  @ApiOperation({ summary: 'Add a line to a draft invoice', description: 'The line’s amount is quantity × unit_amount, rounded half-even to the currency’s minor unit. Drafts only.' })
  @HttpCode(200)
  @ApiOkResponse({ type: InvoiceResponse, headers: ETAG })
  @ApiIdempotent()
  @ApiProblemResponses(API_KEY_PROBLEMS, IDEMPOTENT_PROBLEMS, {
    400: ['invoice.invalid_line', 'invoice.too_many_lines', 'request.invalid_metadata'],
    404: ['invoice.not_found'],
    409: ['invoice.not_draft', 'request.concurrent_update'],
  })
  async addLine(@Ctx() context: RequestContext, @Param('id') id: string, @Body() body: InvoiceLineDto, @Res({ passthrough: true }) response: Response): Promise<InvoiceResource> {
    return withEtag(response, await this.drafts.addLine(context, id, lineRequest(body)));
  }

  @Delete(':id/lines/:line_id')
  @ApiOperation({ summary: 'Remove a line from a draft invoice', description: 'Drafts only; a finalised invoice is corrected with a credit note.' })
  @ApiOkResponse({ type: InvoiceResponse, headers: ETAG })
  @ApiProblemResponses(API_KEY_PROBLEMS, { 404: ['invoice.not_found', 'invoice.line_not_found'], 409: ['invoice.not_draft', 'request.concurrent_update'] })
  async removeLine(@Ctx() context: RequestContext, @Param('id') id: string, @Param('line_id') lineId: string, @Res({ passthrough: true }) response: Response): Promise<InvoiceResource> {
    return withEtag(response, written(await this.commands.send(invoiceAggregate, id, { type: 'RemoveInvoiceLine', data: { invoice_id: id, line_id: lineId } }, context)));
  }

  @Post(':id/finalize')
  @ApiOperation({
    summary: 'Finalise a draft invoice',
    description:
      'Draft → open: the lines are locked, the discounts applied and the tax computed, and the invoice takes the next number of the tenant’s gap-free sequence. ' +
      'The due date is fixed (the draft’s, or days_until_due from now). An invoice with nothing to pay is paid at once.',
  })
  @HttpCode(200)
  @ApiOkResponse({ type: InvoiceResponse, headers: ETAG })
  @ApiIdempotent()
  @ApiProblemResponses(API_KEY_PROBLEMS, IDEMPOTENT_PROBLEMS, {
    404: ['invoice.not_found', 'customer.not_found'],
    409: ['invoice.not_draft', 'invoice.due_at_passed', 'request.concurrent_update'],
  })
  async finalize(@Ctx() context: RequestContext, @Param('id') id: string, @Res({ passthrough: true }) response: Response): Promise<InvoiceResource> {
    return withEtag(response, written(await this.finalizer.finalize(context, id, { whenFinal: 'refuse' })));
  }

  @Post(':id/recompute-tax')
  @ApiOperation({ summary: 'Recompute a draft’s tax', description: 'Applies the draft’s discounts and computes its tax as finalising now would, and shows them on the draft, without finalising it. Drafts only.' })
  @HttpCode(200)
  @ApiOkResponse({ type: InvoiceResponse, headers: ETAG })
  @ApiIdempotent()
  @ApiProblemResponses(API_KEY_PROBLEMS, IDEMPOTENT_PROBLEMS, { 404: ['invoice.not_found', 'customer.not_found'], 409: ['invoice.not_draft', 'request.concurrent_update'] })
  async recomputeTax(@Ctx() context: RequestContext, @Param('id') id: string, @Res({ passthrough: true }) response: Response): Promise<InvoiceResource> {
    return withEtag(response, await this.drafts.recomputeTax(context, id));
  }

  @Post(':id/void')
  @ApiOperation({ summary: 'Void an invoice', description: 'An open invoice without payments; a void invoice is never reopened (voiding it again changes nothing). Drafts are not voided: they are never numbered. Refused while a payment of the invoice awaits its outcome.' })
  @HttpCode(200)
  @ApiOkResponse({ type: InvoiceResponse, headers: ETAG })
  @ApiIdempotent()
  @ApiProblemResponses(API_KEY_PROBLEMS, IDEMPOTENT_PROBLEMS, {
    404: ['invoice.not_found'],
    409: ['invoice.not_open', 'invoice.has_payments', 'invoice.already_paid', 'invoice.uncollectible', 'invoice.payment_in_progress', 'request.concurrent_update'],
  })
  async void(@Ctx() context: RequestContext, @Param('id') id: string, @Res({ passthrough: true }) response: Response): Promise<InvoiceResource> {
    return withEtag(response, written(await this.commands.send(invoiceAggregate, id, { type: 'VoidInvoice', data: { invoice_id: id } }, context)));
  }

  @Post(':id/mark-uncollectible')
  @ApiOperation({ summary: 'Mark an invoice uncollectible', description: 'Writes off an open (or partly paid) invoice; marking it again changes nothing. Refused while a payment of the invoice awaits its outcome.' })
  @HttpCode(200)
  @ApiOkResponse({ type: InvoiceResponse, headers: ETAG })
  @ApiIdempotent()
  @ApiProblemResponses(API_KEY_PROBLEMS, IDEMPOTENT_PROBLEMS, {
    404: ['invoice.not_found'],
    409: ['invoice.not_open', 'invoice.already_paid', 'invoice.voided', 'invoice.payment_in_progress', 'request.concurrent_update'],
  })
  async markUncollectible(@Ctx() context: RequestContext, @Param('id') id: string, @Res({ passthrough: true }) response: Response): Promise<InvoiceResource> {
    return withEtag(response, written(await this.commands.send(invoiceAggregate, id, { type: 'MarkInvoiceUncollectible', data: { invoice_id: id } }, context)));
  }

  @Post(':id/credit-notes')
  @ApiOperation({
    summary: 'Issue a credit note',
    description:
      'Credits an open, partly paid or paid invoice by `amount` (spread over the lines in proportion to what is left of each, each line’s tax at its own rate, each part rounded) or by `lines`, with a reason; numbered from the tenant’s gap-free credit-note sequence, `<prefix>-CN-000001`, …. ' +
      'With outcome `none` (the default before payment) it lowers what is left to pay (and pays the invoice when nothing is left); with `credit_balance` (the default on a paid invoice) it credits what was paid to the customer’s wallet. Never more than is left to credit. ' +
      'While a payment of the invoice awaits its outcome, a credit note may leave no less due than that payment charges.',
  })
  @HttpCode(200)
  @ApiOkResponse({ type: CreditNoteResponse, headers: ETAG })
  @ApiIdempotent()
  @ApiProblemResponses(API_KEY_PROBLEMS, IDEMPOTENT_PROBLEMS, {
    400: ['credit_note.invalid'],
    404: ['invoice.not_found', 'invoice.line_not_found'],
    409: ['invoice.not_open', 'invoice.voided', 'invoice.uncollectible', 'credit_note.exceeds_invoice', 'credit_note.outcome_required', 'credit_note.no_payment_to_refund', 'invoice.payment_in_progress', 'request.concurrent_update'],
  })
  async issueCreditNote(@Ctx() context: RequestContext, @Param('id') id: string, @Body() body: IssueCreditNoteDto, @Res({ passthrough: true }) response: Response): Promise<CreditNoteResource> {
    const lines = body.lines?.map(({ line_id, amount }) => ({ line_id, amount })) ?? null;
    const note = { reason: body.reason, memo: body.memo ?? null, amount: body.amount ?? null, lines, ...(body.outcome && { outcome: body.outcome }), ...(body.payment_id && { payment_id: body.payment_id }) };
    const { invoice } = withRevision(response, await this.drafts.issueCreditNote(context, id, note));
    return invoice.credit_notes[invoice.credit_notes.length - 1];
  }
}

const withEtag = (response: Response, written: InvoiceWritten): InvoiceResource => withRevision(response, written).invoice;

function checkDueGivenOnce(body: { due_at?: string | null; days_until_due?: number | null }): void {
  if (body.due_at !== undefined && body.due_at !== null && body.days_until_due !== undefined && body.days_until_due !== null) {
    const message = 'give due_at or days_until_due, not both';
    throw DomainError.invalid('invoice.due_given_twice', 'A due date and days until due were both given', [{ field: 'days_until_due', code: 'invoice.due_given_twice', message }]);
  }
}

const lineRequest = (line: InvoiceLineDto): LineRequest => ({
  description: line.description,
  quantity: line.quantity,
  unit_amount: line.unit_amount,
  period_start: line.period_start === undefined ? null : toUtcTimestamp(line.period_start),
  period_end: line.period_end === undefined ? null : toUtcTimestamp(line.period_end),
  tax_code: line.tax_code ?? 'standard',
  metadata: line.metadata ?? {},
});

/** The list and the retrieve (with `as_of`), from the resource's definition. */
export const InvoiceReadsController = resourceController(invoiceResource, {
  path: 'v1/invoices', tag: INVOICES_SECTION, noun: 'invoice', type: InvoiceResponse, etag: ETAG, operations: 'InvoicesController', interceptors: [PdfUrlInterceptor],
  list: { summary: 'List invoices', description: 'Newest first by default; filter by status (one or several, comma-separated), customer, subscription, number, due date and creation time.' },
  retrieve: { summary: 'Retrieve an invoice', description: 'The invoice as it is now, or with `as_of` as it was at that moment, rebuilt from its events (404 before it existed).', problems: { 404: ['invoice.not_found'] } },
});
