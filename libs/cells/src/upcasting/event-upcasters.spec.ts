import type { Upcaster } from '@tally/kernel';
import { testMetadata } from '../testing/temp-cells';
import { EventUpcasters } from './event-upcasters';

const step = (eventType: string, fromVersion: number, upcast: Upcaster['upcast'] = (data) => data): Upcaster => ({ eventType, fromVersion, upcast });

describe('EventUpcasters', () => {
  it('puts a type at one past its last upcaster, and a type without upcasters at 1', () => {
    const upcasters = new EventUpcasters([step('Renamed', 2), step('Renamed', 1), step('Other', 1)]);
    expect(upcasters.currentVersion('Renamed')).toBe(3);
    expect(upcasters.currentVersion('Other')).toBe(2);
    expect(upcasters.currentVersion('Plain')).toBe(1);
  });

  it('refuses a chain with a gap or a repeat', () => {
    expect(() => new EventUpcasters([step('A', 2)])).toThrow(/A must run from version 1 up/);
    expect(() => new EventUpcasters([step('A', 1), step('A', 3)])).toThrow(/found 3 after 1/);
    expect(() => new EventUpcasters([step('A', 1), step('A', 1)])).toThrow(/found 1 after 1/);
  });

  it('runs the steps from the stored version up, each told the version it reads', () => {
    const seen: number[] = [];
    const upcasters = new EventUpcasters([
      step('Priced', 1, (data, metadata) => (seen.push(metadata.schema_version), { amount: String(data.cents / 100) })),
      step('Priced', 2, (data, metadata) => (seen.push(metadata.schema_version), { ...data, currency: metadata.tenant_id === 'ten_test' ? 'EUR' : 'USD' })),
    ]);
    const at = (version: number) => testMetadata('2026-01-01T00:00:00.000Z', { schema_version: version });

    expect(upcasters.upcast('Priced', { cents: 1250 }, at(1))).toEqual({ amount: '12.5', currency: 'EUR' });
    expect(seen).toEqual([1, 2]);
    expect(upcasters.upcast('Priced', { amount: '3' }, at(2))).toEqual({ amount: '3', currency: 'EUR' });
    expect(upcasters.upcast('Priced', { amount: '3', currency: 'JPY' }, at(3))).toEqual({ amount: '3', currency: 'JPY' });
  });

  it('tells current events from old ones, and refuses a version this code does not know', () => {
    const upcasters = new EventUpcasters([step('Priced', 1)]);
    expect(upcasters.isCurrent('Priced', 2)).toBe(true);
    expect(upcasters.isCurrent('Priced', 1)).toBe(false);
    expect(upcasters.isCurrent('Plain', 1)).toBe(true);
    expect(() => upcasters.isCurrent('Priced', 3)).toThrow('Priced is stored at schema version 3, which this code cannot read (it knows versions 1 to 2)');
    expect(() => upcasters.isCurrent('Plain', 0)).toThrow(/cannot read/);
  });
});
