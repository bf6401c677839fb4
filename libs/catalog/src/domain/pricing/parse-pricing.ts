import type Big from 'big.js';
import {
  AMOUNT_FRACTION_DIGITS,
  DomainError,
  isWholeMinorUnits,
  minorUnits,
  parseAmount,
  parseUnitAmount,
  UNIT_AMOUNT_FRACTION_DIGITS,
  type FieldError,
} from '@tally/kernel';
import {
  PRICING_MODELS,
  type LateEvents,
  type PackageRounding,
  type Pricing,
  type PricingModel,
  type Tier,
  type TiersMode,
  type UsageAggregation,
  type UsageCycle,
} from './pricing';

export interface ParsePricingOptions {
  /** Where the pricing sits in the request body (`pricing`, `components[2].pricing`): the prefix of every field error. */
  field: string;
  /** The meter of every model priced by a quantity when the body names none: the component's code. */
  defaultMeter: string;
  /** The plan's currency (a valid ISO 4217 code): flat fees and package prices are whole minor units of it. */
  currency: string;
}

const FIELDS: Readonly<Record<PricingModel, readonly string[]>> = {
  flat: ['model', 'amount'],
  per_unit: ['model', 'unit_amount', 'included_units', 'meter'],
  tiered: ['model', 'tiers', 'meter'],
  volume: ['model', 'tiers', 'meter'],
  package: ['model', 'package_size', 'package_price', 'rounding', 'meter'],
  usage: ['model', 'meter', 'aggregation', 'tiers', 'tiers_mode', 'late_events', 'usage_cycle', 'unique_property'],
};
const TIER_FIELDS = ['up_to', 'unit_amount', 'flat_amount'];

/** A meter's name: a quantity of the subscription, or a usage meter. */
export const METER = /^[a-z0-9][a-z0-9_.-]*$/;
export const METER_MAX_LENGTH = 64;
export const AGGREGATIONS: readonly UsageAggregation[] = ['sum', 'max', 'last_during_period', 'unique_count', 'count', 'weighted_sum'];
/** The integration guide's names of the aggregations, each taken as, stored as and answered as Tally's own. */
export const AGGREGATION_ALIASES: ReadonlyMap<string, UsageAggregation> = new Map([
  ['count_agg', 'count'],
  ['sum_agg', 'sum'],
  ['max_agg', 'max'],
  ['unique_count_agg', 'unique_count'],
  ['weighted_sum_agg', 'weighted_sum'],
  ['latest_agg', 'last_during_period'],
]);
export const USAGE_CYCLES: readonly UsageCycle[] = ['period', 'never'];
export const TIERS_MODES: readonly TiersMode[] = ['graduated', 'volume'];
/** The key of a usage event's property whose distinct values `unique_count` counts. */
export const UNIQUE_PROPERTY = /^[A-Za-z0-9_][A-Za-z0-9_.-]{0,63}$/;
const PACKAGE_ROUNDINGS: readonly PackageRounding[] = ['up', 'down'];
const LATE_EVENTS: readonly LateEvents[] = ['next_period', 'rebill'];

/** What a tier's `up_to` may be besides null: whole units, or for usage, whose quantities are decimal, any number above 0. */
interface Bounds {
  isBound(value: unknown): value is number;
  rule: string;
}
const WHOLE_BOUNDS: Bounds = {
  isBound: (value): value is number => Number.isSafeInteger(value) && (value as number) >= 1,
  rule: 'a whole number ≥ 1',
};
const DECIMAL_BOUNDS: Bounds = {
  isBound: (value): value is number => typeof value === 'number' && value > 0 && value <= Number.MAX_SAFE_INTEGER,
  rule: `a number above 0 (at most ${Number.MAX_SAFE_INTEGER})`,
};

/**
 * Validates the pricing of a plan component as it arrives in a request body and returns it with
 * every default filled. All problems are collected first, then thrown together as one
 * `pricing.invalid` error whose field errors name each path (`pricing.tiers[1].up_to`).
 */
export function parsePricing(input: unknown, options: ParsePricingOptions): Pricing {
  const problems: FieldError[] = [];
  const pricing = readPricing(input, options, problems);
  if (problems.length > 0) {
    const summary = problems.map((p) => `${p.field} ${p.message}`).join('; ');
    throw DomainError.invalid('pricing.invalid', `The pricing is invalid: ${summary}`, problems);
  }
  return pricing as Pricing;
}

function readPricing(input: unknown, options: ParsePricingOptions, problems: FieldError[]): Pricing | undefined {
  if (!isPlainObject(input)) {
    problems.push({ field: options.field, code: 'pricing.missing_field', message: 'must be an object with a model' });
    return undefined;
  }
  const wire = new WireObject(input, options.field, options.currency, problems);
  const model = wire.required('model');
  if (model === undefined) return undefined;
  if (!isOneOf(model, PRICING_MODELS)) {
    wire.problem('model', 'pricing.unknown_model', `must be one of ${PRICING_MODELS.join(', ')}`);
    return undefined;
  }
  wire.refuseUnknownFields(FIELDS[model], `a ${model} pricing`);
  const meter = (): string => wire.meter(options.defaultMeter);
  switch (model) {
    case 'flat':
      return { model, amount: wire.chargedAmount('amount') };
    case 'per_unit':
      return { model, unit_amount: wire.unitAmount('unit_amount'), included_units: wire.integer('included_units', 0, 0), meter: meter() };
    case 'tiered':
    case 'volume':
      return { model, tiers: wire.tiers(WHOLE_BOUNDS), meter: meter() };
    case 'package':
      return {
        model,
        package_size: wire.integer('package_size', 1),
        package_price: wire.chargedAmount('package_price'),
        rounding: wire.oneOf('rounding', PACKAGE_ROUNDINGS, 'pricing.invalid_rounding', { fallback: 'up' }),
        meter: meter(),
      };
    case 'usage':
      return readUsage(wire, meter());
  }
}

function readUsage(wire: WireObject, meter: string): Pricing {
  const aggregation = wire.oneOf('aggregation', AGGREGATIONS, 'pricing.invalid_aggregation', { aliases: AGGREGATION_ALIASES });
  return {
    model: 'usage',
    meter,
    aggregation,
    tiers: wire.tiers(DECIMAL_BOUNDS),
    tiers_mode: wire.oneOf('tiers_mode', TIERS_MODES, 'pricing.invalid_tiers_mode', { fallback: 'graduated' }),
    late_events: wire.oneOf('late_events', LATE_EVENTS, 'pricing.invalid_late_events', { fallback: 'next_period' }),
    usage_cycle: wire.oneOf('usage_cycle', USAGE_CYCLES, 'pricing.invalid_usage_cycle', { fallback: 'period' }),
    unique_property: wire.uniqueProperty(wire.hasProblem('aggregation') ? undefined : aggregation),
  };
}

/**
 * One object of the body under validation: reads its fields and records what is wrong with them.
 * A field that is wrong reads as a placeholder; the caller throws before any placeholder escapes.
 */
class WireObject {
  constructor(
    private readonly value: Record<string, unknown>,
    private readonly path: string,
    private readonly currency: string,
    private readonly problems: FieldError[],
  ) {}

  problem(key: string, code: string, message: string): void {
    this.problems.push({ field: this.pathOf(key), code, message });
  }

  hasProblem(key: string): boolean {
    const field = this.pathOf(key);
    return this.problems.some((problem) => problem.field === field);
  }

  private pathOf(key: string): string {
    return this.path === '' ? key : `${this.path}.${key}`;
  }

  /** `of` names the object in the message: `this pricing`, `a tier`. */
  refuseUnknownFields(known: readonly string[], of: string): void {
    for (const key of Object.keys(this.value)) {
      if (!known.includes(key)) this.problem(key, 'pricing.unknown_field', `is not a field of ${of}`);
    }
  }

  /** The field's value, or undefined (recorded as missing) when it is absent. */
  required(key: string): unknown {
    const value = this.optional(key);
    if (value === undefined) this.problem(key, 'pricing.missing_field', 'is required');
    return value;
  }

  optional(key: string): unknown {
    return Object.hasOwn(this.value, key) ? this.value[key] : undefined;
  }

  /** A price per unit: a non-negative plain decimal string with up to 12 digits after the point, kept exactly as given. */
  unitAmount(key: string): string {
    return this.decimal(key, parseUnitAmount, UNIT_AMOUNT_FRACTION_DIGITS)?.text ?? '';
  }

  /** An amount charged as it is (a flat fee, a package price): also whole minor units of the currency, kept exactly as given. */
  chargedAmount(key: string): string {
    const amount = this.decimal(key, parseAmount, AMOUNT_FRACTION_DIGITS);
    if (amount === undefined) return '';
    if (!isWholeMinorUnits(amount.value, this.currency)) {
      const digits = minorUnits(this.currency);
      this.problem(key, 'pricing.invalid_amount', `must be whole minor units of ${this.currency}: at most ${digits} digits after the point ("${amount.text}")`);
    }
    return amount.text;
  }

  nullableChargedAmount(key: string): string | null {
    const value = this.optional(key);
    return value === undefined || value === null ? null : this.chargedAmount(key);
  }

  /** A non-negative plain decimal string; undefined (and a problem recorded) when it is anything else. */
  private decimal(key: string, parse: (text: string) => Big, fractionDigits: number): { text: string; value: Big } | undefined {
    const value = this.required(key);
    if (value === undefined) return undefined;
    if (typeof value !== 'string') {
      this.problem(key, 'pricing.invalid_amount', 'must be a decimal string such as "12.50"');
      return undefined;
    }
    let parsed: Big;
    try {
      parsed = parse(value);
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      this.problem(key, 'pricing.invalid_amount', `must be a plain decimal string with at most 20 digits, ${fractionDigits} after the point ("${value}")`);
      return undefined;
    }
    if (value.startsWith('-')) {
      this.problem(key, 'pricing.invalid_amount', `must not be negative ("${value}")`);
      return undefined;
    }
    return { text: value, value: parsed };
  }

  /** A whole number ≥ min; `fallback` when absent, or required when there is none. */
  integer(key: string, min: number, fallback?: number): number {
    const value = fallback === undefined ? this.required(key) : this.optional(key);
    if (value === undefined) return fallback ?? 0;
    if (!Number.isSafeInteger(value) || (value as number) < min) {
      this.problem(key, 'pricing.invalid_integer', `must be a whole number ≥ ${min}`);
      return min;
    }
    return value as number;
  }

  /** One of `allowed`, or an alias of one, read as the one it names; `fallback` when absent, or required when there is none. */
  oneOf<T extends string>(key: string, allowed: readonly T[], code: string, { fallback, aliases }: { fallback?: T; aliases?: ReadonlyMap<string, T> } = {}): T {
    const value = fallback === undefined ? this.required(key) : this.optional(key);
    if (value === undefined) return fallback ?? allowed[0];
    const named = typeof value === 'string' ? (aliases?.get(value) ?? value) : value;
    if (!isOneOf(named, allowed)) {
      this.problem(key, code, `must be one of ${[...allowed, ...(aliases?.keys() ?? [])].join(', ')}`);
      return allowed[0];
    }
    return named;
  }

  /**
   * The event property a `unique_count` aggregation counts the distinct values of: optional with
   * it (without one it counts distinct events, the spec's shape), refused with any other. Null (as
   * answered) counts as absent. `aggregation` is undefined when it is itself wrong, and then only
   * the property's form is checked.
   */
  uniqueProperty(aggregation: UsageAggregation | undefined): string | null {
    const value = this.optional('unique_property') ?? null;
    if (aggregation !== undefined && aggregation !== 'unique_count') {
      if (value !== null) this.problem('unique_property', 'pricing.unique_property_not_allowed', `only a unique_count aggregation counts a property, not ${aggregation}`);
      return null;
    }
    if (value === null) return null;
    if (typeof value !== 'string' || !UNIQUE_PROPERTY.test(value)) {
      this.problem(
        'unique_property',
        'pricing.invalid_unique_property',
        'must be 1 to 64 characters: letters, digits, "_", "." or "-", starting with a letter, digit or "_"',
      );
      return null;
    }
    return value;
  }

  meter(fallback: string): string {
    const value = this.optional('meter');
    if (value === undefined) return fallback;
    if (typeof value !== 'string' || value.length > METER_MAX_LENGTH || !METER.test(value)) {
      this.problem(
        'meter',
        'pricing.invalid_meter',
        `must be 1 to ${METER_MAX_LENGTH} characters: lowercase letters, digits, "_", "." or "-", starting with a letter or digit`,
      );
      return fallback;
    }
    return value;
  }

  /**
   * Bands in ascending order of `up_to`, each a bound greater than the one before, except the
   * last, which is `null`: the unbounded top band.
   */
  tiers(bounds: Bounds): Tier[] {
    const value = this.required('tiers');
    if (value === undefined) return [];
    if (!Array.isArray(value) || value.length === 0) {
      this.problem('tiers', 'pricing.tiers_empty', 'must be a non-empty array of tiers');
      return [];
    }
    const tiers = value.map((tier, i) => this.tier(tier, `tiers[${i}]`, bounds));
    this.checkBands(tiers, bounds);
    return tiers;
  }

  private tier(input: unknown, key: string, bounds: Bounds): Tier {
    if (!isPlainObject(input)) {
      this.problem(key, 'pricing.missing_field', 'must be an object with up_to and unit_amount');
      return { up_to: Number.NaN, unit_amount: '', flat_amount: null };
    }
    const tier = new WireObject(input, this.pathOf(key), this.currency, this.problems);
    tier.refuseUnknownFields(TIER_FIELDS, 'a tier');
    const upTo = tier.required('up_to');
    if (upTo !== null && upTo !== undefined && !bounds.isBound(upTo)) {
      tier.problem('up_to', 'pricing.invalid_integer', `must be ${bounds.rule}, or null for the top band`);
    }
    return { up_to: upTo as number | null, unit_amount: tier.unitAmount('unit_amount'), flat_amount: tier.nullableChargedAmount('flat_amount') };
  }

  private checkBands(tiers: readonly Tier[], { isBound }: Bounds): void {
    const last = tiers.length - 1;
    let previous: number | undefined;
    tiers.forEach((tier, i) => {
      const field = `tiers[${i}].up_to`;
      if (tier.up_to === null) {
        if (i !== last) this.problem(field, 'pricing.tiers_top_band', 'only the last tier may be unbounded (null)');
        return;
      }
      if (i === last && isBound(tier.up_to)) {
        this.problem(field, 'pricing.tiers_top_band', 'the last tier must be unbounded: up_to null');
      }
      if (!isBound(tier.up_to)) return;
      if (previous !== undefined && tier.up_to <= previous) {
        this.problem(field, 'pricing.tiers_not_ascending', `must be greater than the previous tier's up_to (${previous})`);
      }
      previous = tier.up_to;
    });
  }
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isOneOf<T extends string>(value: unknown, allowed: readonly T[]): value is T {
  return typeof value === 'string' && (allowed as readonly string[]).includes(value);
}
