import { Module } from '@nestjs/common';
import { TaxModule } from '@tally/tax';
import { PreviewInvoiceHandler } from './invoice-preview';
import { InvoicesController } from './invoices.controller';
import { InvoiceDocumentsController, InvoicePdfFilesController } from './documents/invoice-documents.controller';
import { invoiceDocumentQueryHandlers } from './documents/invoice-documents.queries';
import { InvoicePdfLinks } from './documents/pdf-links';

@Module({
  imports: [TaxModule],
  controllers: [InvoicesController, InvoiceDocumentsController, InvoicePdfFilesController],
  providers: [PreviewInvoiceHandler, InvoicePdfLinks, ...invoiceDocumentQueryHandlers],
  exports: [InvoicePdfLinks],
})
export class InvoicingModule {}
