import Big from 'big.js';
import { DomainError, type FieldError } from '@tally/kernel';
import { USAGE_QUANTITY_LIMIT } from '@tally/catalog/published';
import { acceptUsageBatch, eventField, eventQuantityBound, type MeteredSubscription } from './usage-batch.decide';
import { parseUsageEvent, type UsageDraft } from './usage-event.parse';

const NOW = new Date('2026-06-10T00:00:00.000Z');
const live: MeteredSubscription = { exists: true, ended: false, meters: new Map([['calls', new Big('1000.5')], ['storage', USAGE_QUANTITY_LIMIT]]), rebillMeters: new Set(['storage']), now: NOW };
const wire = { subscription_id: 'sub_1', meter: 'calls', quantity: '12.50', timestamp: '2026-06-09T12:00:00.123456+02:00', external_id: 'e1' };

function parse(input: unknown): { draft?: UsageDraft; problems: FieldError[] } {
  const problems: FieldError[] = [];
  return { draft: parseUsageEvent(input, '', problems), problems };
}

const inBatch = eventField((i) => `events[${i}]`);
const codes = (input: unknown) => parse(input).problems.map((p) => [p.field, p.code]);

function refusal(drafts: ((UsageDraft & { external_id: string }) | undefined)[], subscriptions: Record<string, MeteredSubscription>, earlier: FieldError[] = []): DomainError {
  try {
    acceptUsageBatch(drafts, new Map(Object.entries(subscriptions)), inBatch, earlier);
  } catch (error) {
    if (error instanceof DomainError) return error;
    throw error;
  }
  throw new Error('the batch was accepted');
}

describe('reading a usage event', () => {
  it('normalises the timestamp to UTC milliseconds (finer digits dropped) and keeps the quantity exact', () => {
    const { draft } = parse(wire);
    expect(draft?.timestamp).toBe('2026-06-09T10:00:00.123Z');
    expect(draft?.quantity).toBe('12.5');
  });

  it.each([
    ['exponent notation', '1.0e3'],
    ['a plus sign', '+1'],
    ['a number, not a string', 5],
    ['spaces', ' 1'],
    ['13 digits after the point', '0.0000000000001'],
  ])('refuses a quantity with %s (usage.invalid_quantity)', (_name, quantity) => {
    expect(codes({ ...wire, quantity })).toEqual([['quantity', 'usage.invalid_quantity']]);
  });

  it.each([
    ['12.50', '12.5'],
    ['007', '7'],
    ['-0', '0'],
    ['-0.000', '0'],
    ['0.10', '0.1'],
    ['-0.05', '-0.05'],
    ['100', '100'],
    ['12345678901234567890.123456789012', '12345678901234567890.123456789012'],
  ])('keeps the quantity %s in its shortest form, %s', (quantity, shortest) => {
    expect(parse({ ...wire, quantity }).draft?.quantity).toBe(shortest);
  });

  it('accepts negative corrections', () => {
    expect(parse({ ...wire, quantity: '-3' }).draft?.quantity).toBe('-3');
  });

  it('takes idempotency_key as another name of external_id, and refuses the two when they differ', () => {
    expect(parse({ ...wire, external_id: undefined, idempotency_key: 'k' }).draft?.external_id).toBe('k');
    expect(codes({ ...wire, idempotency_key: 'other' })).toEqual([['idempotency_key', 'usage.invalid_external_id']]);
  });

  it('lists every problem of an event at once', () => {
    expect(codes({ meter: 'Not A Meter', quantity: '1', timestamp: '2026-02-30T00:00:00Z', colour: 'red', properties: { 'bad key': 1 } })).toEqual([
      ['colour', 'field.unknown'],
      ['subscription_id', 'usage.missing_field'],
      ['meter', 'usage.invalid_meter'],
      ['timestamp', 'usage.invalid_timestamp'],
      ['properties.bad key', 'usage.invalid_properties'],
    ]);
  });

  it('keeps properties in an object without a prototype, numbers as their JSON text', () => {
    const { draft } = parse({ ...wire, properties: JSON.parse('{"__proto__": "p", "user": 42}') });
    expect(Object.getPrototypeOf(draft?.properties)).toBeNull();
    expect(Object.entries(draft!.properties!)).toEqual([['__proto__', 'p'], ['user', '42']]);
  });
});

describe('accepting a batch', () => {
  const draft = (overrides: Partial<UsageDraft> = {}) => ({ ...parse(wire).draft!, ...overrides, external_id: 'e1' });

  it('accepts every event, received at the subscription’s now', () => {
    const [record] = acceptUsageBatch([draft()], new Map([['sub_1', live]]), inBatch);
    expect(record).toEqual({ subscription_id: 'sub_1', meter: 'calls', quantity: '12.5', timestamp: '2026-06-09T10:00:00.123Z', external_id: 'e1', properties: null, received_at: NOW.toISOString() });
  });

  it('marks the events of a meter whose component bills late events by rebill', () => {
    const [calls, storage] = acceptUsageBatch([draft(), draft({ meter: 'storage' })], new Map([['sub_1', live]]), inBatch);
    expect([calls.rebill, storage.rebill]).toEqual([undefined, true]);
  });

  it('refuses the whole batch with the first kind of failure found, naming every failing event', () => {
    const error = refusal([draft(), draft({ meter: 'seats' }), draft({ subscription_id: 'sub_gone' }), draft({ subscription_id: 'sub_ended' })], {
      sub_1: live,
      sub_ended: { exists: true, ended: true, meters: new Map(), rebillMeters: new Set(), now: NOW },
    });
    expect([error.code, error.kind]).toEqual(['usage.subscription_not_found', 'not_found']);
    expect(error.fields.map((f) => [f.field, f.code])).toEqual([
      ['events[1].meter', 'usage.meter_not_on_subscription'],
      ['events[2].subscription_id', 'usage.subscription_not_found'],
      ['events[3].subscription_id', 'usage.subscription_canceled'],
    ]);
  });

  it('names the events that could not be read with those it refuses, event by event, the code of a field that is not valid first', () => {
    const unread = { field: 'events[2].quantity', code: 'usage.invalid_quantity', message: 'a decimal string' };
    const error = refusal([draft({ subscription_id: 'sub_gone' }), draft(), undefined, draft({ meter: 'seats' })], { sub_1: live }, [unread]);
    expect([error.code, error.kind]).toEqual(['usage.invalid_quantity', 'invalid']);
    expect(error.fields.map((f) => [f.field, f.code])).toEqual([
      ['events[0].subscription_id', 'usage.subscription_not_found'],
      ['events[2].quantity', 'usage.invalid_quantity'],
      ['events[3].meter', 'usage.meter_not_on_subscription'],
    ]);
  });

  it('takes a quantity up to the meter’s bound either way, and refuses one beyond it (usage.quantity_out_of_range)', () => {
    expect(acceptUsageBatch([draft({ quantity: '1000.5' }), draft({ quantity: '-1000.5' })], new Map([['sub_1', live]]), inBatch)).toHaveLength(2);
    const error = refusal([draft({ quantity: '1000.50000001' }), draft({ quantity: '-1001' }), draft({ meter: 'storage', quantity: '1000000000000' })], { sub_1: live });
    expect([error.code, error.kind]).toEqual(['usage.quantity_out_of_range', 'invalid']);
    expect(error.fields.map((f) => f.field)).toEqual(['events[0].quantity', 'events[1].quantity', 'events[2].quantity']);
  });

  it('bounds an event of a meter by what its components can bill when its quantity counts, else by what a line can hold', () => {
    const billable = new Big('5000');
    expect((['sum', 'max', 'last_during_period', 'weighted_sum', 'count', 'unique_count'] as const).map((aggregation) => eventQuantityBound(aggregation, billable).toFixed())).toEqual([
      '5000',
      '5000',
      '5000',
      '5000',
      USAGE_QUANTITY_LIMIT.toFixed(),
      USAGE_QUANTITY_LIMIT.toFixed(),
    ]);
  });

  it.each([
    ['35 days back', '2026-05-06T00:00:00.000Z', true],
    ['more than 35 days back', '2026-05-05T23:59:59.999Z', false],
    ['5 minutes ahead', '2026-06-10T00:05:00.000Z', true],
    ['more than 5 minutes ahead', '2026-06-10T00:05:00.001Z', false],
  ])('takes a timestamp %s: %s', (_name, timestamp, accepted) => {
    const accept = () => acceptUsageBatch([draft({ timestamp })], new Map([['sub_1', live]]), inBatch);
    if (accepted) expect(accept()).toHaveLength(1);
    else expect(refusal([draft({ timestamp })], { sub_1: live }).code).toBe('usage.timestamp_out_of_range');
  });
});
