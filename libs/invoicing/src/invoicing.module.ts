import { Module } from '@nestjs/common';
import { TaxModule } from '@tally/tax';
import { PreviewInvoiceHandler } from './invoice-preview';
import { InvoicesController } from './invoices.controller';

@Module({
  imports: [TaxModule],
  controllers: [InvoicesController],
  providers: [PreviewInvoiceHandler],
})
export class InvoicingModule {}
