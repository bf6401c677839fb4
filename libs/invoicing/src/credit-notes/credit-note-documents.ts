import { Injectable } from '@nestjs/common';
import { CellRegistry, type RequestContext } from '@tally/cells';
import { TENANTS, type TenantEntry } from '@tally/http';
import { DomainError } from '@tally/kernel';
import { ScopedReads } from '@tally/runtime';
import { invoiceOf, partiesOf, pdfFilename } from '../documents/invoice-documents.queries';
import { renderCreditNotePdf } from './credit-note-pdf';
import { CREDIT_NOTES } from './credit-note.projection';
import type { CreditNoteResource } from './credit-note.view';

export const creditNoteNotFound = (id: string) => DomainError.notFound('credit_note.not_found', `No credit note ${id}`);

/** A credit note of the read model, and its PDF. */
@Injectable()
export class CreditNoteDocuments {
  constructor(
    private readonly reads: ScopedReads,
    private readonly cells: CellRegistry,
  ) {}

  async creditNote(context: RequestContext, id: string): Promise<CreditNoteResource> {
    const found = await this.reads.retrieve<CreditNoteResource>(context, CREDIT_NOTES, id);
    if (!found) throw creditNoteNotFound(id);
    return found.resource;
  }

  async pdf(context: RequestContext, id: string): Promise<{ pdf: Buffer; filename: string }> {
    const note = await this.creditNote(context, id);
    const invoice = await invoiceOf(this.reads, context, note.invoice_id);
    const tenant = await this.cells.directory.get<TenantEntry>(TENANTS, context.tenantId);
    const parties = await partiesOf(this.reads, context, tenant?.name ?? context.tenantId, note.customer_id);
    return { pdf: await renderCreditNotePdf(note, invoice, parties), filename: pdfFilename(note.number) };
  }
}
