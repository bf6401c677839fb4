import { couponProjection, planProjection } from '@tally/catalog';
import { customerPii, customerProjection } from '@tally/customers';
import type { Upcaster } from '@tally/kernel';
import { processPii, type AggregateType, type PiiFieldSpec, type Projection } from '@tally/platform';
import { taxSettingsProjection } from '@tally/tax';
import { auditLogProjection, tenantDirectoryProjection } from '@tally/tenancy';

/** Every context's read models, personal-data fields, upcasters and aggregate id prefixes, in one list each. */
export const PROJECTIONS: readonly Projection[] = [tenantDirectoryProjection, auditLogProjection, customerProjection, planProjection, couponProjection, taxSettingsProjection];

export const PII_FIELDS: readonly PiiFieldSpec[] = [...processPii, ...customerPii];

/** Each context declares the upcasters of its events beside them; no event has a second version yet. */
export const UPCASTERS: readonly Upcaster[] = [];

export const AGGREGATE_TYPES: readonly AggregateType[] = [
  { idPrefix: 'ten', type: 'tenant' },
  { idPrefix: 'cus', type: 'customer' },
  { idPrefix: 'plan', type: 'plan' },
  { idPrefix: 'cpn', type: 'coupon' },
  { idPrefix: 'txs', type: 'tax_settings' },
  { idPrefix: 'clock', type: 'test_clock' },
];
