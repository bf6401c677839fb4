import type { CustomerState } from '@tally/customers';
import { DomainError } from '@tally/kernel';
import type { AutoTopUp } from './domain/wallet.events';

/** The automatic top-up charges the wallet's customer only: its payment method must be attached to that customer. */
export function assertCustomersMethod(customer: CustomerState, customerId: string, autoTopUp: AutoTopUp | null | undefined): void {
  if (!autoTopUp || (customer.status === 'active' && customer.paymentMethodIds.includes(autoTopUp.payment_method_id))) return;
  throw DomainError.unprocessable('wallet.payment_method_not_attached', `Payment method ${autoTopUp.payment_method_id} is not attached to customer ${customerId}`, [
    { field: 'auto_top_up.payment_method_id', code: 'wallet.payment_method_not_attached', message: 'attach the payment method to the customer first' },
  ]);
}
