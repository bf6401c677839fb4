import { Module } from '@nestjs/common';
import { CustomerReadsController, CustomersController } from './customers.controller';
import { customerCommandHandlers } from './customer.handlers';
import { ListTaxIdsHandler } from './tax-id.queries';
import { TaxIdValidationProcess } from './tax-id-validation.process';
import { TestClockCustomersProcess } from './test-clock-customers.process';
import { RuleBasedTaxIdValidator, TAX_ID_VALIDATOR } from './tax-id-validator.port';

@Module({
  controllers: [CustomerReadsController, CustomersController],
  providers: [
    ...customerCommandHandlers,
    ListTaxIdsHandler,
    TaxIdValidationProcess,
    TestClockCustomersProcess,
    { provide: TAX_ID_VALIDATOR, useClass: RuleBasedTaxIdValidator },
  ],
  exports: [TaxIdValidationProcess, TestClockCustomersProcess],
})
export class CustomersModule {}
