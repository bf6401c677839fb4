import { Module } from '@nestjs/common';
import { TaxModule } from '@tally/tax';
import { PreviewInvoiceHandler } from './invoice-preview';
import { InvoiceFinalizer, InvoiceNumbering } from './invoice-finalizer';
import { invoiceCommandHandlers } from './invoice.handlers';
import { InvoiceNumberingProcess } from './invoice-numbering.process';
import { invoiceQueryHandlers } from './invoice.queries';
import { InvoicesController } from './invoices.controller';
import { InvoiceTaxation } from './invoice-totals';

@Module({
  imports: [TaxModule],
  controllers: [InvoicesController],
  providers: [PreviewInvoiceHandler, InvoiceTaxation, InvoiceNumbering, InvoiceFinalizer, ...invoiceCommandHandlers, ...invoiceQueryHandlers, InvoiceNumberingProcess],
  exports: [InvoiceNumberingProcess],
})
export class InvoicingModule {}
