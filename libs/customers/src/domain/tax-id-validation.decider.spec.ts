import { ProcessSpecification } from '@tally/kernel/testing/process-spec';
import { taxIdValidationDecider, type TaxIdAdded } from './tax-id-validation.decider';

const spec = ProcessSpecification.for(taxIdValidationDecider);
const data = { customer_id: 'cus_01JCUSTOMER00000000000000', tax_id_id: 'txi_01JTAXID0000000000000000' };
const added: TaxIdAdded = { id: '01JEVENT000000000000000001', type: 'CustomerTaxIdAdded', data };

describe('tax ID validation process', () => {
  it('asks the customer to validate a new tax ID', () => {
    spec.given([]).when(added).then([{ kind: 'command', command: { type: 'ValidateTaxId', data } }]);
  });

  it('asks once, however often the tax ID’s event arrives', () => {
    spec.given([added]).when({ ...added, id: '01JEVENT000000000000000002' }).thenNothingHappens();
  });
});
