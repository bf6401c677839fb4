import Big from 'big.js';
import { DomainError, formatAmount, type FieldError } from '@tally/kernel';
import { planAggregate, planIdOf, type Plan } from '@tally/catalog';
import { componentsInForce, maxBillableUsage, meterOf, type ComponentInForce } from '@tally/catalog/published';
import { priceLines, type InvoiceLine } from '@tally/invoicing';
import type { RequestContext } from '@tally/cells';
import type { CommandRuntime } from '@tally/runtime';
import type { Cadence, Period } from './domain/billing-cycle';
import type { LicensedCharge } from './domain/prorations';
import type { UsageMeter } from './billing/usage-readings.port';

/** A plan a subscription can be on: it exists and is neither archived nor deleted. */
export async function subscribablePlan(runtime: CommandRuntime, context: RequestContext, codeOrId: string): Promise<Plan> {
  const plan = await loadPlan(runtime, context, codeOrId);
  if (plan.status === 'archived') throw DomainError.conflict('plan.archived', `Plan ${plan.code} is archived: no new subscription or change may use it`);
  return plan;
}

/** The plan as its stream knows it now (a deleted plan is refused). */
export async function loadPlan(runtime: CommandRuntime, context: RequestContext, codeOrId: string): Promise<Plan> {
  const { state } = await runtime.load(runtime.cellOf(context), planAggregate, planIdOf(context, codeOrId), context);
  if (state.status === 'none') throw planAggregate.notFound(codeOrId);
  if (state.status === 'deleted') throw DomainError.conflict('plan.deleted', `Plan ${state.code} is deleted`);
  return state;
}

export const cadenceOf = (plan: Plan): Cadence => ({ interval: plan.interval, count: plan.intervalCount });

/** The plan's components in force at `at`: licensed (flat, per_unit, tiered, volume, package, billed in advance) or usage (in arrears). */
function componentsOf(plan: Plan, at: string, kind: 'licensed' | 'usage'): ComponentInForce[] {
  return componentsInForce(plan.priceVersions, at).filter((component) => (component.pricing.model === 'usage') === (kind === 'usage'));
}

const metersOf = (components: readonly ComponentInForce[]): Set<string> =>
  new Set(components.map((component) => meterOf(component.pricing)).filter((meter): meter is string => meter !== null));

/** The meters of the plan's licensed components in force at `at`. */
export const licensedMeters = (plan: Plan, at: string): Set<string> => metersOf(componentsOf(plan, at, 'licensed'));

/**
 * The meters of the plan's usage components in force at `at`, each with how its component reads
 * it: what a period's usage is read for. Two components of one meter read it as the first does,
 * and bill it up to the lower of their maximums.
 */
export function usageMeters(plan: Plan, at: string): UsageMeter[] {
  const meters = new Map<string, UsageMeter>();
  for (const { pricing } of componentsOf(plan, at, 'usage')) {
    if (pricing.model !== 'usage') continue;
    const billable = maxBillableUsage(pricing);
    const first = meters.get(pricing.meter);
    if (first) first.billable_max = billable.lt(first.billable_max) ? billable : first.billable_max;
    else meters.set(pricing.meter, { meter: pricing.meter, aggregation: pricing.aggregation, usage_cycle: pricing.usage_cycle, unique_property: pricing.unique_property, late_events: pricing.late_events, billable_max: billable });
  }
  return [...meters.values()];
}

/** Every quantity names a meter of a licensed component of the plan (a typo never bills as one unit). */
export function checkQuantities(plan: Plan, quantities: ReadonlyMap<string, number>, at: string, field = 'quantities'): void {
  const meters = licensedMeters(plan, at);
  const errors: FieldError[] = [...quantities.keys()]
    .filter((meter) => !meters.has(meter))
    .map((meter) => ({ field: `${field}.${meter}`, code: 'subscription.unknown_meter', message: `no flat, per_unit, tiered, volume or package component of plan ${plan.code} uses this meter` }));
  if (errors.length > 0) throw DomainError.unprocessable('subscription.unknown_meter', `Some meters belong to no licensed component of plan ${plan.code}`, errors);
}

/**
 * The licensed lines of a period at these quantities, priced with the components in force at the
 * period's start: billed in advance. Quantities of meters the plan no longer has are left out.
 */
export function licensedLines(plan: Plan, quantities: Record<string, number>, period: Period): InvoiceLine[] {
  const components = componentsOf(plan, period.start, 'licensed');
  const meters = metersOf(components);
  const known = new Map(Object.entries(quantities).filter(([meter]) => meters.has(meter)));
  return priceLines(components, { quantities: known, usage: new Map() }, plan.currency, period);
}

/** The usage lines of a closed period, priced with the components in force at its start: billed in arrears. */
export function usageLines(plan: Plan, usage: ReadonlyMap<string, Big>, period: Period): InvoiceLine[] {
  return priceLines(componentsOf(plan, period.start, 'usage'), { quantities: new Map(), usage }, plan.currency, period);
}

/** What each licensed component costs for the whole period: what a change or a cancellation prorates. */
export function licensedCharges(plan: Plan, quantities: Record<string, number>, period: Period): LicensedCharge[] {
  return licensedLines(plan, quantities, period).map((line) => ({ code: line.code, description: line.description, amount: formatAmount(line.amount, plan.currency), price_version: line.price_version, tax_code: line.tax_code }));
}
