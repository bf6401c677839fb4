import type { ContextManifest } from '@tally/runtime';
import { customerPii } from './customer.pii';
import { customerResource } from './customer.resource';
import { CustomersModule } from './customers.module';
import { TaxIdValidationProcess } from './tax-id-validation.process';
import { TestClockCustomersProcess } from './test-clock-customers.process';
import { TestClockCustomersIndexReaction } from './test-clock-customers-index.reaction';
import { CUSTOMERS_SECTION } from './customers.api-sections';

/** Customers, their tax IDs (validated by a process), and their personal data, sealed per customer. */
export const customersContext: ContextManifest = {
  name: 'customers',
  apiSections: [CUSTOMERS_SECTION],
  module: CustomersModule,
  projections: [customerResource.projection],
  processes: [TaxIdValidationProcess, TestClockCustomersProcess],
  reactions: [TestClockCustomersIndexReaction],
  pii: customerPii,
  aggregateTypes: [{ idPrefix: 'cus', type: 'customer' }],
};
