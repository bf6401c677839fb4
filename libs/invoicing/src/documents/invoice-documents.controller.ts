import { Controller, Get, Param, Query, Req, Res } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { API_KEY_AUTH, API_KEY_PROBLEMS, ApiAuthenticated, ApiPageParameters, ApiProblemResponses, ApiTag, ApiWithoutKey, Ctx, LIST_PROBLEMS } from '@tally/http';
import { invalidParameter, parseLimit } from '@tally/runtime';
import type { RequestContext } from '@tally/cells';
import { InvoicePdfLinkResponse, RecognitionScheduleResponse } from './invoice-documents.response';
import { GetInvoicePdfLinkQuery, GetRecognitionScheduleQuery, RenderInvoicePdfQuery, type RecognitionRowsPage, type RecognitionScheduleResource } from './invoice-documents.queries';
import { INVOICE_PDF_PATH } from './pdf-links';
import { answerPdfLink, ApiPdfLinkResponses, ApiSignedPdf, sendPdf } from './pdf-answers';
import { INVOICES_SECTION } from '../invoicing.api-sections';

/** Rows per page of a recognition schedule: a document's rows rather than a list's items, so a page holds a year's line whole (366 rows) and most invoices' schedules. */
const MAX_SCHEDULE_ROWS = 1000;

/** `limit` and `cursor`; any other parameter is refused. */
function rowsPageOf(params: Record<string, unknown>): RecognitionRowsPage {
  const other = Object.keys(params).find((key) => key !== 'limit' && key !== 'cursor');
  if (other !== undefined) throw invalidParameter(other, `Unknown parameter ${other}; the schedule takes limit and cursor`);
  const { limit, cursor } = params;
  if (cursor !== undefined && typeof cursor !== 'string') throw invalidParameter('cursor', 'cursor takes one value');
  return { limit: parseLimit(limit, { fallback: MAX_SCHEDULE_ROWS, max: MAX_SCHEDULE_ROWS }), cursor };
}

/** The documents of an invoice: a link to its PDF, and its revenue recognition schedule. */
@Controller('v1/invoices')
@ApiAuthenticated(API_KEY_AUTH)
@ApiTag(INVOICES_SECTION)
export class InvoiceDocumentsController {
  constructor(private readonly queries: QueryBus) {}

  @Get(':id/pdf')
  @ApiOperation({
    summary: 'Get an invoice’s PDF',
    description:
      'Redirects (302) to a signed link that serves the invoice as `application/pdf` without an API key, for five minutes (the invoice’s `pdf_url` is one too). ' +
      'A client whose `Accept` prefers `application/json` to `application/pdf` gets the link as JSON instead; without `Accept`, with `*/*` or anything else, the redirect. ' +
      'The PDF shows the seller, the customer’s billing details, the number (or DRAFT), the dates, the lines, discounts, tax breakdown, totals and credit notes as the invoice is when the link is opened.',
  })
  @ApiPdfLinkResponses(InvoicePdfLinkResponse)
  @ApiProblemResponses(API_KEY_PROBLEMS, { 404: ['invoice.not_found'] })
  async pdf(@Ctx() context: RequestContext, @Param('id') id: string, @Req() request: Request, @Res() response: Response): Promise<void> {
    const link = await this.queries.execute(new GetInvoicePdfLinkQuery(context, id));
    const body: InvoicePdfLinkResponse = { object: 'invoice_pdf_link', invoice_id: link.invoice_id, url: link.url, expires_at: link.expires_at };
    answerPdfLink(request, response, body);
  }

  @Get(':id/recognition-schedule')
  @ApiOperation({
    summary: 'Get an invoice’s revenue recognition schedule',
    description:
      'Straight-line daily over each line’s service period (UTC days, each day weighted by its time inside the period, rounded so that a line’s rows sum exactly to its amount). ' +
      'A credit note reduces the line’s rows from its day on in proportion and reverses the share already recognised with a negative row on its day. ' +
      'A row is recognised once its day has ended, on the customer’s test clock if it has one. Drafts and void invoices have no rows. ' +
      `Rows come in pages of up to ${MAX_SCHEDULE_ROWS} (the whole schedule of most invoices): pass \`next_cursor\` as \`cursor\` for the next; the sums are always the whole schedule’s.`,
  })
  @ApiOkResponse({ type: RecognitionScheduleResponse })
  @ApiPageParameters({ fallback: MAX_SCHEDULE_ROWS, max: MAX_SCHEDULE_ROWS })
  @ApiProblemResponses(API_KEY_PROBLEMS, LIST_PROBLEMS, { 404: ['invoice.not_found'] })
  recognitionSchedule(@Ctx() context: RequestContext, @Param('id') id: string, @Query() params: Record<string, unknown>): Promise<RecognitionScheduleResource> {
    return this.queries.execute(new GetRecognitionScheduleQuery(context, id, rowsPageOf(params)));
  }
}

/** Where signed links serve invoice PDFs: outside `/v1`, so without an API key; the link's signature is the credential. */
@Controller(INVOICE_PDF_PATH.slice(1))
@ApiWithoutKey()
@ApiTag(INVOICES_SECTION)
export class InvoicePdfFilesController {
  constructor(private readonly queries: QueryBus) {}

  @Get(':invoice_id')
  @ApiOperation({
    summary: 'Open an invoice PDF by its signed link',
    description:
      'What `pdf_url` and `GET /v1/invoices/{id}/pdf` link to: the invoice as `application/pdf`, without an API key. ' +
      'A link answers 403 once it has expired (`invoice_pdf.link_expired`, five minutes after it was signed) or when any part of it was changed (`invoice_pdf.invalid_signature`).',
  })
  @ApiSignedPdf({ name: 'invoice', notFound: 'invoice.not_found' })
  async open(@Param('invoice_id') invoiceId: string, @Query() link: Record<string, unknown>, @Res() response: Response): Promise<void> {
    sendPdf(response, await this.queries.execute(new RenderInvoicePdfQuery(invoiceId, link)));
  }
}
