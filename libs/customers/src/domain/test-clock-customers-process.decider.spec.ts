import { ProcessSpecification } from '@tally/kernel/testing/process-spec';
import { testClockCustomersProcessDecider, type TestClockDeleted } from './test-clock-customers-process.decider';

const spec = ProcessSpecification.for(testClockCustomersProcessDecider);
const data = { test_clock_id: 'clock_01JCLOCK000000000000000000' };
const deleted: TestClockDeleted = { id: '01JEVENT000000000000000001', type: 'TestClockDeleted', data };

describe('test clock customers process', () => {
  it('deletes the customers of a deleted test clock', () => {
    spec.given([]).when(deleted).then([{ kind: 'command', command: { type: 'DeleteCustomersOnTestClock', data } }]);
  });

  it('deletes them once, however often the deletion arrives', () => {
    spec.given([deleted]).when({ ...deleted, id: '01JEVENT000000000000000002' }).thenNothingHappens();
  });
});
