/** Why a payment attempt failed, in the spec's `last_error` shape: shared by payments, their invoices and the provider port. */
export interface PaymentError {
  code: string;
  decline_code: string | null;
  provider_message: string;
  user_message: string;
  /** Whether a later retry may succeed (dunning retries only these). */
  is_retriable: boolean;
  /** The earliest time a retry may succeed; null when it cannot. */
  retriable_after: string | null;
}
