import Big from 'big.js';
import { keyedObject, utcTimestampOf, type FieldError } from '@tally/kernel';
import { METER, METER_MAX_LENGTH } from '@tally/catalog/published';

/** A usage event as a request sends it, checked field by field; the dedupe key may still be missing. */
export interface UsageDraft {
  subscription_id: string;
  meter: string;
  /** A plain decimal in its shortest form: `12.50` is `12.5`, `-0` is `0`. */
  quantity: string;
  timestamp: string;
  external_id: string | null;
  properties: Record<string, string> | null;
}

/** The fields `POST /v1/usage` takes; `idempotency_key` is another description's name of `external_id`. */
const FIELDS = ['subscription_id', 'meter', 'quantity', 'timestamp', 'external_id', 'idempotency_key', 'properties'];

/** A plain decimal: no exponent (`1.0e3` is refused), no `+`, no spaces. */
const QUANTITY = /^-?(\d{1,20})(?:\.(\d{1,12}))?$/;
/** A QUANTITY already in its shortest form (most are): no leading zeros, no trailing zeros after the point, not `-0`. */
const SHORTEST = /^(?:-?[1-9][0-9]*(?:\.[0-9]*[1-9])?|-?0\.[0-9]*[1-9]|0)$/;
export const EXTERNAL_ID_MAX_LENGTH = 255;
/** A property's key; `unique_count` counts the distinct values of one (the component's `unique_property`). */
export const PROPERTY_KEY = /^[A-Za-z0-9_][A-Za-z0-9_.-]{0,63}$/;
export const MAX_PROPERTIES = 20;
export const PROPERTY_VALUE_MAX_LENGTH = 255;
const ID_MAX_LENGTH = 255;

/**
 * Reads one usage event of a request body. Every problem is recorded under `at` (`events[3]`, or
 * '' for a body that is the event itself); the draft is returned only when there was none.
 */
export function parseUsageEvent(input: unknown, at: string, problems: FieldError[]): UsageDraft | undefined {
  const before = problems.length;
  const problem = (field: string, code: string, message: string) => problems.push({ field: at === '' ? field : `${at}.${field}`, code, message });
  if (input === null || typeof input !== 'object' || Array.isArray(input)) {
    problems.push({ field: at, code: 'usage.invalid_event', message: 'must be an object' });
    return undefined;
  }
  const wire = input as Record<string, unknown>;
  for (const key of Object.keys(wire)) if (!FIELDS.includes(key)) problem(key, 'field.unknown', `property ${key} should not exist`);

  const subscriptionId = requiredString(wire, 'subscription_id', ID_MAX_LENGTH, problem);
  const meter = requiredString(wire, 'meter', METER_MAX_LENGTH, problem);
  if (meter !== undefined && !METER.test(meter)) problem('meter', 'usage.invalid_meter', 'a meter name: lowercase letters, digits, `_`, `.` and `-`');
  const quantity = readQuantity(wire.quantity, problem);
  const timestamp = readTimestamp(wire.timestamp, problem);
  const externalId = readExternalId(wire, problem);
  const properties = readProperties(wire.properties, problem);
  if (problems.length > before) return undefined;
  return { subscription_id: subscriptionId!, meter: meter!, quantity: quantity!, timestamp: timestamp!, external_id: externalId ?? null, properties: properties ?? null };
}

type Problem = (field: string, code: string, message: string) => void;

/** Lengths count characters (code points), as the schema's `maxLength` does, not UTF-16 units. */
function hasLength(value: string, max: number, min = 1): boolean {
  if (value.length < min) return false;
  if (value.length <= max) return true;
  let count = 0;
  for (const _ of value) if (++count > max) return false;
  return true;
}

function requiredString(wire: Record<string, unknown>, field: string, maxLength: number, problem: Problem): string | undefined {
  const value = wire[field];
  if (value === undefined) return void problem(field, 'usage.missing_field', 'is required');
  if (typeof value !== 'string' || !hasLength(value, maxLength)) return void problem(field, `usage.invalid_${field}`, `a string of 1 to ${maxLength} characters`);
  return value;
}

/** The spec's own code for anything that is not a plain decimal string. */
function readQuantity(value: unknown, problem: Problem): string | undefined {
  if (value === undefined) return void problem('quantity', 'usage.missing_field', 'is required');
  if (typeof value !== 'string' || !QUANTITY.test(value)) {
    return void problem('quantity', 'usage.invalid_quantity', 'a decimal string such as "12" or "-0.5": at most 20 digits before the point and 12 after it, no exponent');
  }
  return SHORTEST.test(value) ? value : new Big(value).toFixed();
}

/** ISO 8601 with a zone, stored in UTC to the millisecond (finer digits are dropped, not rounded). */
function readTimestamp(value: unknown, problem: Problem): string | undefined {
  if (value === undefined) return void problem('timestamp', 'usage.missing_field', 'is required');
  const timestamp = typeof value === 'string' ? utcTimestampOf(value) : undefined;
  if (!timestamp) return void problem('timestamp', 'usage.invalid_timestamp', 'an ISO 8601 timestamp with its zone, such as 2026-06-01T12:00:00.000Z');
  return timestamp;
}

function readExternalId(wire: Record<string, unknown>, problem: Problem): string | undefined {
  const { external_id: externalId, idempotency_key: alias } = wire;
  for (const [field, value] of [['external_id', externalId], ['idempotency_key', alias]] as const) {
    if (value !== undefined && (typeof value !== 'string' || !hasLength(value, EXTERNAL_ID_MAX_LENGTH))) {
      problem(field, 'usage.invalid_external_id', `a string of 1 to ${EXTERNAL_ID_MAX_LENGTH} characters`);
      return undefined;
    }
  }
  if (externalId !== undefined && alias !== undefined && externalId !== alias) {
    return void problem('idempotency_key', 'usage.invalid_external_id', 'names the dedupe key, as external_id does: send one, or both the same');
  }
  return (externalId ?? alias) as string | undefined;
}

/** User-keyed: kept in a null-prototype object. Numbers are kept as their JSON text. */
function readProperties(value: unknown, problem: Problem): Record<string, string> | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'object' || Array.isArray(value)) return void problem('properties', 'usage.invalid_properties', 'an object of string or number values');
  const entries = Object.entries(value);
  if (entries.length > MAX_PROPERTIES) return void problem('properties', 'usage.invalid_properties', `at most ${MAX_PROPERTIES} properties`);
  const properties = keyedObject<string>();
  for (const [key, inner] of entries) {
    if (!PROPERTY_KEY.test(key)) problem(`properties.${key}`, 'usage.invalid_properties', 'a key of letters, digits, `_`, `.` and `-`, at most 64 characters');
    else if (typeof inner === 'string' && hasLength(inner, PROPERTY_VALUE_MAX_LENGTH, 0)) properties[key] = inner;
    else if (typeof inner === 'number' && Number.isFinite(inner)) properties[key] = JSON.stringify(inner);
    else problem(`properties.${key}`, 'usage.invalid_properties', `a string of at most ${PROPERTY_VALUE_MAX_LENGTH} characters, or a number`);
  }
  return properties;
}
