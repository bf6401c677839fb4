import { Module } from '@nestjs/common';
import { TaxModule } from '@tally/tax';
import { PreviewInvoiceHandler } from './invoice-preview';
import { InvoicesController } from './invoices.controller';
import { InvoiceTaxation } from './invoice-totals';

@Module({
  imports: [TaxModule],
  controllers: [InvoicesController],
  providers: [PreviewInvoiceHandler, InvoiceTaxation],
})
export class InvoicingModule {}
