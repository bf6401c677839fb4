import { DeciderSpecification } from '@tally/kernel/testing/decider-spec';
import { customersOnTestClock, testClockCustomersDecider } from './test-clock-customers.decider';
import type { TestClockCustomerRecorded } from './test-clock-customers.events';

const spec = DeciderSpecification.for(testClockCustomersDecider);
const recorded = (customer_id: string): TestClockCustomerRecorded => ({ type: 'TestClockCustomerRecorded', data: { test_clock_id: 'clock_1', customer_id } });
const record = (customer_id: string) => ({ type: 'RecordTestClockCustomer' as const, data: recorded(customer_id).data });

describe('test clock customers index', () => {
  it('records a customer created on the clock', () => {
    spec.given([]).when(record('cus_1')).then([recorded('cus_1')]);
    spec.given([recorded('cus_1')]).when(record('cus_2')).then([recorded('cus_2')]);
  });

  it('records a customer once', () => {
    spec.given([recorded('cus_1')]).when(record('cus_1')).thenNothingHappens();
  });

  it('lists the customers it recorded', () => {
    const fold = (events: TestClockCustomerRecorded[]) => events.reduce(testClockCustomersDecider.evolve, testClockCustomersDecider.initialState());
    expect(customersOnTestClock(fold([recorded('cus_1'), recorded('cus_2')]))).toEqual(['cus_1', 'cus_2']);
    expect(customersOnTestClock(fold([]))).toEqual([]);
  });
});
