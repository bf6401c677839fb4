import type { ApiPropertyOptions } from '@nestjs/swagger';
import type { SchemaObject } from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';
import { AMOUNT_FRACTION_DIGITS, UNIT_AMOUNT_FRACTION_DIGITS } from '@tally/kernel';
import { amountPattern } from '@tally/http';
import { AGGREGATION_ALIASES, AGGREGATIONS, METER, METER_MAX_LENGTH, TIERS_MODES, UNIQUE_PROPERTY, USAGE_CYCLES } from '../domain/pricing/parse-pricing';

/** A price per unit: up to 12 digits after the point (20 in all), as Stripe's `unit_amount_decimal`. */
const unitAmount = (description: string): SchemaObject => ({
  type: 'string',
  pattern: amountPattern(UNIT_AMOUNT_FRACTION_DIGITS),
  example: '0.0015',
  description: `${description}; up to 12 digits after the point, kept as sent`,
});
/** An amount charged as it is: whole minor units of the plan's currency. */
const chargedAmount = (description: string, example: string): SchemaObject => ({
  type: 'string',
  pattern: amountPattern(AMOUNT_FRACTION_DIGITS),
  example,
  description: `${description}; in whole minor units of the plan’s currency (no 0.5 JPY), kept as sent`,
});
const meter: SchemaObject = {
  type: 'string',
  pattern: METER.source,
  maxLength: METER_MAX_LENGTH,
  example: 'seats',
  description: 'The subscription quantity (or usage meter) that prices it; defaults to the component code',
};
/** parsePricing takes safe integers only. */
const count = (minimum: number, example: number, extra: SchemaObject = {}): SchemaObject => ({ type: 'integer', minimum, maximum: Number.MAX_SAFE_INTEGER, example, ...extra });

// exclusiveMinimum is a number in OpenAPI 3.1 (JSON Schema 2020-12), the document's version; @nestjs/swagger types it as 3.0's boolean.
const upTo = {
  type: 'number',
  exclusiveMinimum: 0,
  maximum: Number.MAX_SAFE_INTEGER,
  nullable: true,
  example: 1000,
  description:
    'Last unit of the band: a whole number ≥ 1, except in usage pricing, whose quantities are decimal, where any number above 0 (`0.5`, `1000.25`); null for the unbounded top band, which comes last',
} as unknown as SchemaObject;

const tier: SchemaObject = {
  type: 'object',
  required: ['up_to', 'unit_amount'],
  properties: {
    up_to: upTo,
    unit_amount: unitAmount('Price of each unit in the band'),
    flat_amount: {
      ...chargedAmount('Charged once for the band (graduated: once the quantity reaches it; volume: when the quantity falls in it; quantity 0 falls in the first band)', '5.00'),
      nullable: true,
    },
  },
};

const tiers = {
  type: 'array',
  items: tier,
  minItems: 1,
  // Exactly one unbounded band; that it comes last and that the bounds ascend, no keyword can say.
  contains: { properties: { up_to: { type: 'null' } }, required: ['up_to'] },
  minContains: 1,
  maxContains: 1,
  description: 'Strictly ascending `up_to`, exactly one null top band, last',
  example: [
    { up_to: 1000, unit_amount: '0.002' },
    { up_to: null, unit_amount: '0.0015' },
  ],
} as SchemaObject;

const model = (name: string, required: string[], properties: Record<string, SchemaObject>, description: string): SchemaObject => ({
  type: 'object',
  title: name,
  description,
  required: ['model', ...required],
  properties: { model: { type: 'string', enum: [name] }, ...properties },
});

/** The six pricing models (docs/pricing.md), one schema each, told apart by `model`. */
export const PRICING_SCHEMA = {
  description: 'How the component is priced; `model` selects the shape (see docs/pricing.md)',
  oneOf: [
    model('flat', ['amount'], { amount: chargedAmount('Fixed price per period', '29.00') }, 'A fixed price per period, whatever the quantity'),
    model(
      'per_unit',
      ['unit_amount'],
      { unit_amount: unitAmount('Price per unit beyond the included units'), included_units: count(0, 3, { default: 0 }), meter },
      'Each unit beyond the included ones at one price',
    ),
    model('tiered', ['tiers'], { tiers, meter }, 'Graduated: each unit at the price of the band it falls in'),
    model('volume', ['tiers'], { tiers, meter }, 'The whole quantity at the price of the band the total falls in'),
    model(
      'package',
      ['package_size', 'package_price'],
      { package_size: count(1, 100), package_price: chargedAmount('Price per package', '9.00'), rounding: { type: 'string', enum: ['up', 'down'], default: 'up' }, meter },
      'Whole packages of units: partial packages round up (default) or are not charged (down)',
    ),
    model(
      'usage',
      ['aggregation', 'tiers'],
      {
        meter: { ...meter, example: 'api_calls' },
        aggregation: {
          type: 'string',
          enum: [...AGGREGATIONS, ...AGGREGATION_ALIASES.keys()],
          description: `How the meter’s events make the quantity; the integration guide’s names (${[...AGGREGATION_ALIASES].map(([alias, name]) => `\`${alias}\` for \`${name}\``).join(', ')}) are taken too and answered as Tally’s own`,
        },
        tiers,
        tiers_mode: {
          type: 'string',
          enum: [...TIERS_MODES],
          default: 'graduated',
          description: '`graduated`: each unit at the price of the band it falls in; `volume`: the whole aggregate at the price of the band it falls in',
        },
        late_events: { type: 'string', enum: ['next_period', 'rebill'], default: 'next_period' },
        usage_cycle: {
          type: 'string',
          enum: [...USAGE_CYCLES],
          default: 'period',
          description: '`period`: the aggregate starts again every billing period; `never`: a counter that never resets',
        },
        unique_property: {
          type: 'string',
          pattern: UNIQUE_PROPERTY.source,
          nullable: true,
          example: 'user_id',
          description: 'The key of the usage events’ `properties` whose distinct values `unique_count` counts; without one (null), `unique_count` counts distinct events (each `external_id` once). Refused (unless null) with any other aggregation',
        },
      },
      'The aggregate of usage events (each period’s, or never reset), priced by graduated (default) or volume tiers',
    ),
  ],
} as ApiPropertyOptions;
