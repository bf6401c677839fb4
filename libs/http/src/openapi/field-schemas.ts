import type { SchemaObject } from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';
import { AMOUNT_MAX_DIGITS, countryCodes, currencyCodes, DATE_ONLY_IN_RANGE, METADATA_MAX_KEY_LENGTH, METADATA_MAX_KEYS, METADATA_MAX_VALUE_BYTES, TIME_RANGE, TIMESTAMP_IN_RANGE } from '@tally/kernel';

// The schemas of values that many requests share, each saying what the server's check of it accepts.

const IN_RANGE = `Years ${TIME_RANGE.firstYear} to ${TIME_RANGE.lastYear} as written; others answer 400 \`request.timestamp_out_of_range\``;

/** A body field checked by IsTimestamp: its pattern states TIME_RANGE. */
export const TIMESTAMP_SCHEMA = { type: 'string' as const, format: 'date-time' as const, pattern: TIMESTAMP_IN_RANGE.source, example: '2026-06-01T00:00:00Z' };

/** A query parameter read by instantParameter: a date (midnight UTC) or a timestamp with its zone. */
export const INSTANT_SCHEMA: SchemaObject = {
  anyOf: [{ type: 'string', format: 'date', pattern: DATE_ONLY_IN_RANGE.source }, TIMESTAMP_SCHEMA],
  example: '2026-06-01T00:00:00Z',
  description: IN_RANGE,
};

/** An officially assigned ISO 3166-1 alpha-2 code (IsCountryCode). */
export const COUNTRY_CODE_SCHEMA = { type: 'string' as const, enum: countryCodes(), example: 'DE' };

/** An active ISO 4217 code in upper case (isCurrency). */
export const CURRENCY_CODE_SCHEMA = { type: 'string' as const, enum: currencyCodes(), example: 'EUR' };

/** A map whose keys the user chooses (`@IsKeyedObject()`): `keys` is the schema of every key, `values` of every value. */
export const keyedMapSchema = (keys: SchemaObject, values: SchemaObject, about: { example: Record<string, unknown>; description: string; maxProperties?: number }) => ({
  type: 'object' as const,
  propertyNames: keys,
  additionalProperties: values,
  ...about,
});

/** Every resource's metadata, as checkMetadata limits it; only the 500 bytes of a value are beyond a keyword (500 characters can be more). */
export const METADATA_SCHEMA = keyedMapSchema(
  { type: 'string', minLength: 1, maxLength: METADATA_MAX_KEY_LENGTH },
  { type: 'string', maxLength: METADATA_MAX_VALUE_BYTES },
  {
    maxProperties: METADATA_MAX_KEYS,
    example: { order_ref: 'A-1042', crm_id: '48213' },
    description: `Your own key–value pairs: at most ${METADATA_MAX_KEYS} keys of 1–${METADATA_MAX_KEY_LENGTH} characters, string values of at most ${METADATA_MAX_VALUE_BYTES} bytes (UTF-8). An update merges keys; an empty string removes one`,
  },
);

/**
 * A non-negative amount as parseAmount (8) or parseUnitAmount (12 fraction digits) reads it: a
 * plain decimal string of at most AMOUNT_MAX_DIGITS digits. Spelled out per number of fraction
 * digits, since a limit on the total needs a look-ahead, which schema-driven generators rarely support.
 */
export function amountPattern(fractionDigits: number): string {
  const fractions = Array.from({ length: fractionDigits }, (_, i) => `|[0-9]{1,${AMOUNT_MAX_DIGITS - i - 1}}\\.[0-9]{${i + 1}}`);
  return `^([0-9]{1,${AMOUNT_MAX_DIGITS}}${fractions.join('')})$`;
}

/** An amount above zero: `not` a string of zeros and points. */
export const POSITIVE_AMOUNT = { not: { pattern: '^[0.]*$' } };
