import { COMMAND_REJECTED, TIMER_FIRED } from '@tally/kernel';
import { ProcessSpecification } from '@tally/kernel/testing/process-spec';
import { taxIdValidationDecider } from './tax-id-validation.process';

const spec = ProcessSpecification.for(taxIdValidationDecider);
const data = { customer_id: 'cus_01JCUSTOMER00000000000000', tax_id_id: 'txi_01JTAXID0000000000000000' };
const added = { id: '01JEVENT000000000000000001', type: 'CustomerTaxIdAdded' as const, data };

describe('tax ID validation process', () => {
  it('asks the customer to validate a new tax ID', () => {
    spec.given([]).when(added).then([{ kind: 'command', command: { type: 'ValidateTaxId', data } }]);
  });

  it('asks once, however often the tax ID’s event arrives', () => {
    spec.given([added]).when({ ...added, id: '01JEVENT000000000000000002' }).thenNothingHappens();
  });

  it('ends when the validation is refused (the tax ID was deleted first)', () => {
    const rejected = { id: 'rejected:cmd_1', type: COMMAND_REJECTED, data: { command_id: 'cmd_1', command_type: 'ValidateTaxId', code: 'tax_id.not_found', message: 'No tax ID' } } as const;
    spec.given([added]).when(rejected).thenNothingHappens();
  });

  it('ignores a timer it never set', () => {
    spec.given([]).when({ id: 'timer:t', type: TIMER_FIRED, data: { timer_id: 't' } }).thenNothingHappens();
  });
});
