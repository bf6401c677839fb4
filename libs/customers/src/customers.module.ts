import { Module } from '@nestjs/common';
import { CustomerReadsController, CustomersController } from './customers.controller';
import { TaxIdList } from './tax-id-list';
import { TaxIdValidation } from './tax-id-validation';
import { TaxIdValidationProcess } from './tax-id-validation.process';
import { TestClockCustomersProcess } from './test-clock-customers.process';
import { CustomerSubscriptions } from './customer-subscriptions';
import { CustomerPaymentMethods } from './customer-payment-methods';
import { TestClockCustomers } from './test-clock-customers';
import { TestClockCustomersIndexReaction } from './test-clock-customers-index.reaction';
import { RuleBasedTaxIdValidator, TAX_ID_VALIDATOR } from './tax-id-validator.port';

@Module({
  controllers: [CustomerReadsController, CustomersController],
  providers: [
    TaxIdList,
    TaxIdValidation,
    TaxIdValidationProcess,
    TestClockCustomersProcess,
    CustomerSubscriptions,
    CustomerPaymentMethods,
    TestClockCustomers,
    TestClockCustomersIndexReaction,
    { provide: TAX_ID_VALIDATOR, useClass: RuleBasedTaxIdValidator },
  ],
  exports: [TaxIdValidationProcess, TestClockCustomersProcess, CustomerSubscriptions, CustomerPaymentMethods, TestClockCustomersIndexReaction],
})
export class CustomersModule {}
