import { DomainError, isCurrency } from '@tally/kernel';
import type { DunningPolicy, PlanInterval } from './plan.events';

/** Stripe's limit: one billing period is at most a year. */
export const MAX_INTERVAL_COUNT: Readonly<Record<PlanInterval, number>> = { day: 365, week: 52, month: 12, year: 1 };

export function checkCurrency(currency: string): void {
  if (!isCurrency(currency)) {
    throw DomainError.invalid('money.unknown_currency', `${currency} is not an ISO 4217 currency code in upper case (USD, EUR, JPY, …)`, [
      { field: 'currency', code: 'money.unknown_currency', message: 'an uppercase ISO 4217 code' },
    ]);
  }
}

export function checkInterval(interval: PlanInterval, count: number): void {
  const max = MAX_INTERVAL_COUNT[interval];
  if (!Number.isInteger(count) || count < 1 || count > max) {
    throw DomainError.invalid('plan.invalid_interval', `A plan bills at most once a year: interval_count is 1 to ${max} for ${interval}`, [
      { field: 'interval_count', code: 'plan.invalid_interval', message: `1 to ${max} for interval ${interval}` },
    ]);
  }
}

/** Retry days are distinct and ascending, so the dunning schedule reads in the order it runs. */
/** The policy with its defaults filled in: provider hints on unless it says otherwise. */
export const withPolicyDefaults = (policy: DunningPolicy | null): DunningPolicy | null => policy && { ...policy, use_provider_hints: policy.use_provider_hints ?? true };

export function checkDunningPolicy(policy: DunningPolicy | null): void {
  if (!policy) return;
  const ascending = policy.retry_days.every((day, i) => i === 0 || day > policy.retry_days[i - 1]);
  if (!ascending) {
    throw DomainError.invalid('plan.invalid_dunning_policy', 'dunning_policy.retry_days must be strictly ascending', [
      { field: 'dunning_policy.retry_days', code: 'plan.invalid_dunning_policy', message: 'strictly ascending days after the first failure' },
    ]);
  }
}
