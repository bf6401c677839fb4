import { editObjects, editProperty, renameProperty } from '../schema-edits';
import { isFields, type VersionTransformer } from '../version-transformer';

/** Before 2026-04-01 a payment's `last_error` said `retriable` where it now says `is_retriable`. */
export const paymentLastErrorRetriable: VersionTransformer = {
  name: 'payment-last-error-retriable',
  from: '2026-04-01',
  to: '2025-10-01',
  objects: ['payment'],
  transform: (payment) => {
    const error = payment.last_error;
    if (!isFields(error) || !('is_retriable' in error)) return payment;
    const renamed = Object.entries(error).map(([field, value]) => [field === 'is_retriable' ? 'retriable' : field, value]);
    return { ...payment, last_error: Object.fromEntries(renamed) };
  },
  transformSchema: (payment, resolve) =>
    editProperty(payment, 'last_error', (lastError) => editObjects(lastError, resolve, (error) => renameProperty(error, 'is_retriable', 'retriable'))),
};
