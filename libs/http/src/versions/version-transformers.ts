import { invoicePaymentsLatestId } from './transformers/invoice-payments-latest-id';
import { invoiceTaxOmittedWhenZero } from './transformers/invoice-tax-omitted-when-zero';
import { paymentLastErrorRetriable } from './transformers/payment-last-error-retriable';
import type { VersionTransformer } from './version-transformer';

/**
 * The chain that serves older versions, newest change first: a body in the current version passes
 * through every transformer down to the version asked for. 2025-10-01 → 2025-04-01 changed no
 * shape, so no transformer goes from 2025-10-01 (docs/versions.md).
 */
export const VERSION_TRANSFORMERS: readonly VersionTransformer[] = [
  paymentLastErrorRetriable,
  invoicePaymentsLatestId,
  invoiceTaxOmittedWhenZero,
];
