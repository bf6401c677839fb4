import { DeciderSpecification } from '@tally/kernel/testing/decider-spec';
import { failedInvoicesDecider, type FailedInvoicesEvent } from './failed-invoices';

const spec = DeciderSpecification.for(failedInvoicesDecider);
const customer_id = 'cus_1';
const recorded = (invoice_id: string): FailedInvoicesEvent => ({ type: 'FailedInvoiceRecorded', data: { customer_id, invoice_id } });
const record = (invoice_id: string) => ({ type: 'RecordFailedInvoice' as const, data: { customer_id, invoice_id } });
const forget = (...invoice_ids: string[]) => ({ type: 'ForgetFailedInvoices' as const, data: { customer_id, invoice_ids } });

describe('a customer’s failed invoices', () => {
  it('records an invoice whose payment failed, once', () => {
    spec.given([]).when(record('inv_a')).then([recorded('inv_a')]);
    spec.given([recorded('inv_a')]).when(record('inv_a')).thenNothingHappens();
  });

  it('forgets the invoices it holds, and only those', () =>
    spec.given([recorded('inv_a'), recorded('inv_b')]).when(forget('inv_a', 'inv_c')).then([{ type: 'FailedInvoicesForgotten', data: { customer_id, invoice_ids: ['inv_a'] } }]));

  it('records an invoice again after it was forgotten', () =>
    spec.given([recorded('inv_a'), { type: 'FailedInvoicesForgotten', data: { customer_id, invoice_ids: ['inv_a'] } }]).when(record('inv_a')).then([recorded('inv_a')]));

  it('forgets nothing it does not hold', () => spec.given([recorded('inv_a')]).when(forget('inv_b')).thenNothingHappens());
});
