import { Controller, Get, Param, Query, Req, Res, UseInterceptors } from '@nestjs/common';
import { ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import type { RequestContext } from '@tally/cells';
import { API_KEY_AUTH, API_KEY_PROBLEMS, ApiAuthenticated, ApiListResponse, ApiProblemResponses, ApiTag, ApiWithoutKey, Ctx, LIST_PROBLEMS } from '@tally/http';
import { ScopedReads, TIMESTAMP_FILTER, type ListPage, type ListSpec } from '@tally/runtime';
import { CreditNoteResponse } from '../dto/invoice.response';
import { CreditNotePdfLinkResponse } from '../documents/invoice-documents.response';
import { answerPdfLink, ApiPdfLinkResponses, ApiSignedPdf, sendPdf } from '../documents/pdf-answers';
import { CREDIT_NOTE_PDF_PATH } from '../documents/pdf-links';
import { PdfUrlInterceptor } from '../documents/pdf-url.interceptor';
import { INVOICES_SECTION } from '../invoicing.api-sections';
import { CREDIT_NOTES } from './credit-note.projection';
import type { CreditNoteResource } from './credit-note.view';
import { CreditNoteDocuments } from './credit-note-documents';

export const CREDIT_NOTE_LIST: ListSpec = {
  sortable: ['created_at'],
  filters: { invoice_id: { ops: ['eq'] }, customer_id: { ops: ['eq'] }, created_at: TIMESTAMP_FILTER },
};

/** Credit notes on their own: every invoice's, newest first by default. */
@Controller('v1/credit-notes')
@ApiAuthenticated(API_KEY_AUTH)
@ApiTag(INVOICES_SECTION)
@UseInterceptors(PdfUrlInterceptor)
export class CreditNotesController {
  constructor(
    private readonly reads: ScopedReads,
    private readonly documents: CreditNoteDocuments,
  ) {}

  @Get()
  @ApiOperation({ summary: 'List credit notes', description: 'Newest first by default; filter by invoice, customer and creation time.', operationId: 'CreditNotesController_list' })
  @ApiListResponse(CreditNoteResponse, CREDIT_NOTE_LIST)
  @ApiProblemResponses(API_KEY_PROBLEMS, LIST_PROBLEMS)
  list(@Ctx() context: RequestContext, @Query() params: Record<string, unknown>): Promise<ListPage<CreditNoteResource>> {
    return this.reads.page<CreditNoteResource>(context, CREDIT_NOTES, params, CREDIT_NOTE_LIST);
  }

  @Get(':id')
  @ApiOperation({ summary: 'Retrieve a credit note', description: 'As its invoice’s `credit_notes` shows it.', operationId: 'CreditNotesController_retrieve' })
  @ApiOkResponse({ type: CreditNoteResponse })
  @ApiProblemResponses(API_KEY_PROBLEMS, { 404: ['credit_note.not_found'] })
  retrieve(@Ctx() context: RequestContext, @Param('id') id: string): Promise<CreditNoteResource> {
    return this.documents.creditNote(context, id);
  }

  @Get(':id/pdf')
  @ApiOperation({
    summary: 'Get a credit note’s PDF',
    description:
      'As an invoice’s: redirects (302) to a signed link that serves the credit note as `application/pdf` without an API key, for five minutes (the credit note’s `pdf_url` is one too). ' +
      'A client whose `Accept` prefers `application/json` to `application/pdf` gets the link as JSON instead; without `Accept`, with `*/*` or anything else, the redirect. ' +
      'The PDF shows the seller, the customer’s billing details, its number, date, invoice and reason, each line credited with its tax, the total, and what becomes of the amount.',
  })
  @ApiPdfLinkResponses(CreditNotePdfLinkResponse)
  @ApiProblemResponses(API_KEY_PROBLEMS, { 404: ['credit_note.not_found'] })
  async pdf(@Ctx() context: RequestContext, @Param('id') id: string, @Req() request: Request, @Res() response: Response): Promise<void> {
    const link = await this.documents.pdfLink(context, id);
    const body: CreditNotePdfLinkResponse = { object: 'credit_note_pdf_link', credit_note_id: id, url: link.url, expires_at: link.expires_at };
    answerPdfLink(request, response, body);
  }
}

/** Where signed links serve credit note PDFs: outside `/v1`, so without an API key; the link's signature is the credential. */
@Controller(CREDIT_NOTE_PDF_PATH.slice(1))
@ApiWithoutKey()
@ApiTag(INVOICES_SECTION)
export class CreditNotePdfFilesController {
  constructor(private readonly documents: CreditNoteDocuments) {}

  @Get(':credit_note_id')
  @ApiOperation({
    summary: 'Open a credit note PDF by its signed link',
    description:
      'What `pdf_url` and `GET /v1/credit-notes/{id}/pdf` link to: the credit note as `application/pdf`, without an API key. ' +
      'A link answers 403 as an invoice’s does: once it has expired (`invoice_pdf.link_expired`, five minutes after it was signed) or when any part of it was changed (`invoice_pdf.invalid_signature`).',
  })
  @ApiSignedPdf({ name: 'credit note', notFound: 'credit_note.not_found' })
  async open(@Param('credit_note_id') creditNoteId: string, @Query() link: Record<string, unknown>, @Res() response: Response): Promise<void> {
    sendPdf(response, await this.documents.pdf(creditNoteId, link));
  }
}
