import { derivedId, DomainError } from '@tally/kernel';
import type { AggregateDefinition } from '@tally/runtime';
import { failedInvoicesDecider, type FailedInvoicesCommand, type FailedInvoicesEvent, type FailedInvoicesState } from './domain/failed-invoices';

export const FAILED_INVOICES_ID_PREFIX = 'cfinv';

export const failedInvoicesAggregate: AggregateDefinition<FailedInvoicesState, FailedInvoicesCommand, FailedInvoicesEvent> = {
  type: 'customer_failed_invoices',
  decider: failedInvoicesDecider,
  notFound: (id) => DomainError.notFound('payment.failed_invoices_not_found', `No failed invoices ${id}`),
};

/** One index per customer. */
export const failedInvoicesIdOf = (customerId: string): string => derivedId(FAILED_INVOICES_ID_PREFIX, [customerId]);
