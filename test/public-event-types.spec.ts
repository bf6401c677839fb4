import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { HistoryEvent, PublicEventSource } from '@tally/runtime';
import { CONTEXTS } from '../apps/contexts';

/** The rows of docs/events.md's table of domain events: the aggregate, its event types, and the public type each maps to (undefined: internal). */
function documentedEvents(): { aggregate: string; type: string; publicType: string | undefined }[] {
  const table = readFileSync(join(__dirname, '..', 'docs', 'events.md'), 'utf8').split('### Domain events by aggregate')[1].split('\n## ')[0];
  return table
    .split('\n')
    .filter((line) => /^\| [a-z_]+ \| `/.test(line))
    .flatMap((line) => {
      const [, aggregate, events, , publicType] = line.split('|').map((cell) => cell.trim());
      const named = publicType.startsWith('`') ? publicType.slice(1, publicType.indexOf('`', 1)) : undefined;
      return [...events.matchAll(/`([A-Za-z]+)`/g)].map(([, type]) => ({ aggregate, type, publicType: named }));
    });
}

/** A stored event of `type` with no data: what a view's mapping to public types reads. */
const eventOf = (type: string): HistoryEvent => ({
  id: 'evt',
  stream: 'x-1',
  revision: 0,
  type,
  data: {},
  metadata: { tenant_id: 'ten_1', environment: 'live', actor: 'operator', request_id: null, causation_id: null, correlation_id: null, occurred_at: '2026-01-01T00:00:00.000Z', schema_version: 1 },
});

const sources: readonly PublicEventSource[] = CONTEXTS.projections.flatMap((projection) => (projection.publishes ? [projection.publishes] : []));
const documented = documentedEvents();

describe('the public event types each view declares', () => {
  it('reads the documented events of every view that publishes', () => {
    expect(sources.filter((source) => !documented.some((row) => row.aggregate === source.aggregateType)).map((source) => source.aggregateType)).toEqual([]);
  });

  it.each(sources.map((source) => [source.aggregateType, source]))('are those the %s view maps its events to, as documented', (aggregate, source) => {
    const rows = documented.filter((row) => row.aggregate === aggregate);
    expect(rows.map((row) => [row.type, source.publicType(eventOf(row.type))])).toEqual(rows.map((row) => [row.type, row.publicType]));
    const mapped = new Set(rows.flatMap((row) => (row.publicType ? [row.publicType] : [])));
    expect([...source.publicTypes].sort()).toEqual([...mapped].sort());
  });
});
