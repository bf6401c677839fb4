import { Controller, Get, Param, Query, Res } from '@nestjs/common';
import { ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import type { Response } from 'express';
import type { RequestContext } from '@tally/cells';
import { API_KEY_AUTH, API_KEY_PROBLEMS, ApiAuthenticated, ApiListResponse, ApiProblemResponses, ApiTag, Ctx, LIST_PROBLEMS } from '@tally/http';
import { ScopedReads, TIMESTAMP_FILTER, type ListPage, type ListSpec } from '@tally/runtime';
import { CreditNoteResponse } from '../dto/invoice.response';
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
    description: 'The credit note as `application/pdf`: the seller, the customer’s billing details, its number, date, invoice and reason, each line credited with its tax, the total, and what becomes of the amount.',
  })
  @ApiOkResponse({ description: 'The credit note as a PDF', content: { 'application/pdf': {} } })
  @ApiProblemResponses(API_KEY_PROBLEMS, { 404: ['credit_note.not_found'] })
  async pdf(@Ctx() context: RequestContext, @Param('id') id: string, @Res() response: Response): Promise<void> {
    const { pdf, filename } = await this.documents.pdf(context, id);
    response.status(200).set({ 'Content-Type': 'application/pdf', 'Content-Disposition': `inline; filename="${filename}"`, 'Cache-Control': 'private, no-store', 'X-Content-Type-Options': 'nosniff' }).send(pdf);
  }
}
