import fc from 'fast-check';
import type { OpenAPIObject, ReferenceObject } from '@nestjs/swagger';
import { NO_NUL_PATTERN, resolveSchema, type JsonSchema } from '@tally/http';

/** Keeps generated maps, arrays and free text small: the fuzzer is after shapes, not sizes. */
const MAX_ENTRIES = 4;
const MAX_TEXT = 60;

const EARLIEST = new Date('0001-01-01T00:00:00Z');
const LATEST = new Date('9999-12-31T23:59:59Z');

/** An optional field left out. */
const ABSENT = Symbol('absent');

/**
 * Values of the schema's type within its keywords: enums, patterns, formats, lengths, bounds,
 * required and optional properties, maps with their key and value schemas, `anyOf` and `oneOf`
 * members, and one branch of each rule that relates an object's fields (ApiSchemaRules). What
 * that cannot say exactly is left to the caller, which filters through a validator of the schema.
 */
export function schemaValues(document: OpenAPIObject, node: JsonSchema | ReferenceObject | undefined): fc.Arbitrary<unknown> {
  const schema = resolveSchema(document, node);
  if (!schema) return fc.constant({});
  const known = built.get(schema);
  if (known) return known;
  const values = valuesOf(document, schema);
  built.set(schema, values);
  return values;
}

/** Built once per schema: a rule's branch rebuilds its object for every value, but not the fields it leaves alone. */
const built = new WeakMap<JsonSchema, fc.Arbitrary<unknown>>();

function valuesOf(document: OpenAPIObject, schema: JsonSchema): fc.Arbitrary<unknown> {
  const nested = (inner: JsonSchema | ReferenceObject | undefined) => schemaValues(document, inner);
  if (schema.enum) return fc.constantFrom(...schema.enum);
  const rules = schema.properties ? rulesOf(schema) : [];
  if (rules.length > 0) return fc.tuple(...rules.map((branches) => fc.constantFrom(...branches))).chain((chosen) => objects(chosen.reduce(withBranch, schema), nested));
  if (schema.anyOf ?? schema.oneOf) return fc.oneof(...(schema.anyOf ?? schema.oneOf)!.map(nested));
  if (!schema.type && schema.allOf?.length === 1) return nested(schema.allOf[0]);
  const types = [schema.type ?? []].flat();
  if (types.length > 1) return fc.oneof(...types.map((type) => (type === 'null' ? { arbitrary: fc.constant(null), weight: 1 } : { arbitrary: schemaValues(document, { ...schema, type }), weight: 3 })));
  switch (types[0]) {
    case 'object':
      return objects(schema, nested);
    case 'array': {
      const constraints = { minLength: schema.minItems ?? 0, maxLength: Math.min(schema.maxItems ?? MAX_ENTRIES, MAX_ENTRIES) };
      return schema.uniqueItems ? fc.uniqueArray(nested(schema.items), { ...constraints, selector: (value) => JSON.stringify(value) }) : fc.array(nested(schema.items), constraints);
    }
    case 'string':
      return strings(schema);
    case 'integer':
      return fc.integer({ min: Math.max(schema.minimum ?? -1_000_000, Number.MIN_SAFE_INTEGER), max: Math.min(schema.maximum ?? 1_000_000, Number.MAX_SAFE_INTEGER) });
    case 'number':
      return fc.double({ min: schema.minimum ?? -1e9, max: schema.maximum ?? 1e9, noNaN: true, noDefaultInfinity: true });
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    default:
      return fc.jsonValue({ maxDepth: 1 });
  }
}

/** The rules beside an object's properties, each as the branches one of which a value follows. */
function rulesOf(schema: JsonSchema): JsonSchema[][] {
  const rules = [...(schema.allOf ?? []).map((rule) => (rule as JsonSchema).anyOf ?? (rule as JsonSchema).oneOf ?? [rule]), schema.anyOf, schema.oneOf];
  return rules.filter((branches) => Array.isArray(branches) && branches.length > 0) as JsonSchema[][];
}

/** The object schema narrowed to one branch: its required fields required, its bounds on fields applied, the fields it rules out (`false`) left out. */
function withBranch(schema: JsonSchema, branch: JsonSchema): JsonSchema {
  const properties = { ...schema.properties } as Record<string, JsonSchema>;
  for (const [name, bound] of Object.entries(branch.properties ?? {}) as [string, JsonSchema | false][]) {
    if (bound === false) delete properties[name];
    else properties[name] = { ...properties[name], ...bound };
  }
  return { ...schema, allOf: undefined, anyOf: undefined, oneOf: undefined, not: undefined, properties: properties as JsonSchema['properties'], required: [...(schema.required ?? []), ...(branch.required ?? [])] };
}

function objects(schema: JsonSchema, nested: (inner: JsonSchema | ReferenceObject | undefined) => fc.Arbitrary<unknown>): fc.Arbitrary<unknown> {
  if (schema.properties) {
    const fields = Object.fromEntries(Object.entries(schema.properties).map(([name, property]) => [name, nested(property)]));
    // Optional fields are there three times in four, so that a rule deep in a body is often reached.
    const required = new Set(schema.required ?? []);
    const present = Object.fromEntries(Object.entries(fields).map(([name, values]) => [name, required.has(name) ? values : fc.oneof({ arbitrary: values, weight: 3 }, { arbitrary: fc.constant(ABSENT), weight: 1 })]));
    return fc.record(present).map((object) => Object.fromEntries(Object.entries(object).filter(([, value]) => value !== ABSENT)));
  }
  if (typeof schema.additionalProperties === 'object') {
    const keys = schema.propertyNames ? strings(schema.propertyNames) : fc.string({ maxLength: 10 });
    return fc.dictionary(keys, nested(schema.additionalProperties), { maxKeys: Math.min(schema.maxProperties ?? MAX_ENTRIES, MAX_ENTRIES) });
  }
  return fc.constant({});
}

function strings(schema: JsonSchema): fc.Arbitrary<string> {
  const minLength = schema.minLength ?? 0;
  const maxLength = Math.min(schema.maxLength ?? MAX_TEXT, MAX_TEXT);
  const pattern = schema.pattern === undefined ? undefined : new RegExp(schema.pattern, 'u');
  const fits = (text: string) => [...text].length >= minLength && [...text].length <= (schema.maxLength ?? Infinity) && (!pattern || pattern.test(text));
  switch (schema.format) {
    case 'uuid':
      return fc.uuid();
    case 'email':
      return fc.emailAddress().filter(fits);
    case 'date':
      return fc.date({ min: EARLIEST, max: LATEST, noInvalidDate: true }).map((date) => date.toISOString().slice(0, 10));
    case 'date-time':
      return timestamps().filter(fits);
  }
  if (!schema.pattern || schema.pattern === NO_NUL_PATTERN) {
    // NUL is replaced, not filtered out: fast-check draws small code points often, so a long text almost always holds one.
    const text = (lengths: { minLength: number; maxLength: number }) => fc.string({ unit: 'binary', ...lengths }).map((value) => value.replaceAll('\u0000', ' ')).filter(fits);
    // The longest text the schema allows, now and then: where a server's limit differs, it is there.
    const longest = schema.maxLength === undefined ? [] : [{ arbitrary: text({ minLength: schema.maxLength, maxLength: schema.maxLength }), weight: 1 }];
    return fc.oneof({ arbitrary: text({ minLength, maxLength }), weight: 3 }, ...longest);
  }
  return fc.stringMatching(new RegExp(schema.pattern)).filter(fits);
}

/** RFC 3339 timestamps in UTC or with an offset, with 0 to 9 fraction digits. */
function timestamps(): fc.Arbitrary<string> {
  const offset = fc.oneof(fc.constant('Z'), fc.integer({ min: -23 * 60 - 59, max: 23 * 60 + 59 }).map(offsetText));
  const fraction = fc.oneof(fc.constant(''), fc.stringMatching(/^\.[0-9]{1,9}$/));
  return fc.tuple(fc.date({ min: EARLIEST, max: LATEST, noInvalidDate: true }), fraction, offset).map(([date, digits, zone]) => `${date.toISOString().slice(0, 19)}${digits}${zone}`);
}

const offsetText = (minutes: number): string => {
  const size = Math.abs(minutes);
  return `${minutes < 0 ? '-' : '+'}${String(Math.floor(size / 60)).padStart(2, '0')}:${String(size % 60).padStart(2, '0')}`;
};
