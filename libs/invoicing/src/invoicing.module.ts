import { Module } from '@nestjs/common';
import { CreditNotePdfFilesController, CreditNotesController } from './credit-notes/credit-notes.controller';
import { CreditNoteDocuments } from './credit-notes/credit-note-documents';
import { CreditNoteIssuance } from './credit-notes/credit-note-issuance';
import { CreditNoteNumberingReaction } from './credit-notes/credit-note-numbering.reaction';
import { TaxModule } from '@tally/tax';
import { PreviewInvoiceHandler } from './invoice-preview';
import { InvoiceFinalizer } from './invoice-finalizer';
import { InvoiceNumbering } from './invoice-numbering';
import { InvoiceNumberingReaction } from './invoice-numbering.reaction';
import { InvoiceReadsController, InvoicesController } from './invoices.controller';
import { InvoiceDocumentsController, InvoicePdfFilesController } from './documents/invoice-documents.controller';
import { invoiceDocumentQueryHandlers } from './documents/invoice-documents.queries';
import { PdfLinks } from './documents/pdf-links';
import { PdfUrlInterceptor } from './documents/pdf-url.interceptor';
import { InvoiceDryRun } from './invoice-dry-run';
import { InvoiceTaxation } from './invoice-totals';
import { SubscriptionInvoiceIssuer } from './subscription-invoices';
import { InvoiceDrafts } from './invoice-drafts';
import { InvoiceWallets } from './invoice-wallets';

@Module({
  imports: [TaxModule],
  controllers: [InvoicesController, InvoiceReadsController, InvoiceDocumentsController, InvoicePdfFilesController, CreditNotesController, CreditNotePdfFilesController],
  providers: [
    CreditNoteDocuments,
    CreditNoteIssuance,
    CreditNoteNumberingReaction,
    PreviewInvoiceHandler,
    InvoiceTaxation,
    InvoiceNumbering,
    InvoiceFinalizer,
    InvoiceDryRun,
    SubscriptionInvoiceIssuer,
    InvoiceWallets,
    InvoiceDrafts,
    InvoiceNumberingReaction,
    PdfLinks,
    PdfUrlInterceptor,
    ...invoiceDocumentQueryHandlers,
  ],
  exports: [InvoiceNumberingReaction, CreditNoteIssuance, CreditNoteNumberingReaction, PdfLinks, PdfUrlInterceptor, InvoiceTaxation, InvoiceDryRun, SubscriptionInvoiceIssuer, InvoiceWallets],
})
export class InvoicingModule {}
