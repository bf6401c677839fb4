import { Inject, Injectable } from '@nestjs/common';
import { CLOCK, type RequestContext, type SignedLink } from '@tally/cells';
import { DomainError, type Clock } from '@tally/kernel';
import { ScopedReads } from '@tally/runtime';
import { invoiceOf, partiesOf, pdfFilename } from '../documents/invoice-documents.queries';
import { PdfLinks } from '../documents/pdf-links';
import { renderCreditNotePdf } from './credit-note-pdf';
import { CREDIT_NOTES } from './credit-note.projection';
import type { CreditNoteResource } from './credit-note.view';

export const creditNoteNotFound = (id: string) => DomainError.notFound('credit_note.not_found', `No credit note ${id}`);

/** A credit note of the read model, the signed link to its PDF, and the PDF that link serves. */
@Injectable()
export class CreditNoteDocuments {
  constructor(
    private readonly reads: ScopedReads,
    private readonly links: PdfLinks,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async creditNote(context: RequestContext, id: string): Promise<CreditNoteResource> {
    const found = await this.reads.retrieve<CreditNoteResource>(context, CREDIT_NOTES, id);
    if (!found) throw creditNoteNotFound(id);
    return found.resource;
  }

  /** A link to the PDF of a credit note of the request's tenant and environment, for five minutes of the system clock (as an invoice's). */
  async pdfLink(context: RequestContext, id: string): Promise<SignedLink> {
    const note = await this.creditNote(context, id);
    return this.links.sign('credit_note', context, note.id, this.clock.now());
  }

  /** The PDF a signed link names, for whoever holds the link (no API key). */
  async pdf(id: string, link: Record<string, unknown>): Promise<{ pdf: Buffer; filename: string }> {
    const opened = await this.links.open('credit_note', id, link, this.clock.now());
    if (!opened) throw creditNoteNotFound(id);
    const note = await this.creditNote(opened.context, id);
    const invoice = await invoiceOf(this.reads, opened.context, note.invoice_id);
    const parties = await partiesOf(this.reads, opened.context, opened.seller, note.customer_id);
    return { pdf: await renderCreditNotePdf(note, invoice, parties), filename: pdfFilename(note.number) };
  }
}
