import { invoicePaymentsLatestId } from './transformers/invoice-payments-latest-id';
import { invoiceTaxOmittedWhenZero } from './transformers/invoice-tax-omitted-when-zero';
import { paymentLastErrorRetriable } from './transformers/payment-last-error-retriable';
import { isBefore, type ApiVersion } from './api-versions';
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

/** The transformers that take the current version down to `target`, in the order they apply. */
export const transformersDownTo = (target: ApiVersion): readonly VersionTransformer[] => VERSION_TRANSFORMERS.filter((transformer) => !isBefore(transformer.to, target));
