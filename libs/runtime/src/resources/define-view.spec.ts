import type { HistoryEvent } from '../commands/history-event';
import { defineView } from './define-view';

type WidgetEvent =
  | { type: 'WidgetCreated'; data: { widget_id: string; name: string; metadata: Record<string, string> } }
  | { type: 'WidgetRenamed'; data: { widget_id: string; name: string } }
  | { type: 'WidgetLabelled'; data: { widget_id: string; metadata: Record<string, string> } }
  | { type: 'WidgetInspected'; data: { widget_id: string } }
  | { type: 'WidgetDeleted'; data: { widget_id: string } };

interface WidgetResource {
  [field: string]: unknown;
  id: string;
  object: 'widget';
  name: string;
  renames: number;
  metadata: Record<string, string>;
  livemode: boolean;
  created_at: string;
  updated_at: string;
}

const widgetView = defineView<WidgetResource, WidgetEvent, 'WidgetCreated'>({
  object: 'widget',
  created: { type: 'WidgetCreated', fields: ({ name, metadata }) => ({ name, renames: 0, metadata }) },
  changes: {
    WidgetRenamed: (widget, { name }) => ({ name, renames: widget.renames + 1 }),
    WidgetLabelled: (_widget, { metadata }) => ({ metadata }),
    WidgetInspected: 'unchanged',
    WidgetDeleted: 'deleted',
  },
  publicTypes: {
    WidgetCreated: 'widget.created',
    WidgetRenamed: { type: 'widget.updated', when: (event) => event.data.name !== '' },
    WidgetLabelled: 'widget.updated',
    WidgetInspected: undefined,
    WidgetDeleted: 'widget.deleted',
  },
});

const T0 = '2026-05-01T10:00:00.000Z';
const T1 = '2026-05-02T10:00:00.000Z';
const stored = (event: WidgetEvent, at = T0, environment: 'live' | 'sandbox' = 'sandbox'): WidgetEvent & HistoryEvent => ({
  ...event,
  id: 'e1',
  stream: 'widget-wid_1',
  revision: 0,
  metadata: { tenant_id: 'ten_1', environment, actor: 'test', request_id: null, causation_id: null, correlation_id: null, schema_version: 1, occurred_at: at },
});

const created = (environment: 'live' | 'sandbox' = 'sandbox') =>
  widgetView.apply(undefined, stored({ type: 'WidgetCreated', data: { widget_id: 'wid_1', name: 'first', metadata: { plan: 'gold' } } }, T0, environment));

describe('a view declared with defineView', () => {
  it('is of the aggregate its object names, read in the plural collection, unless said otherwise', () => {
    expect([widgetView.aggregateType, widgetView.collection]).toEqual(['widget', 'widgets']);
  });

  it('stamps the creation with the stream’s id, the object, livemode and both dates', () => {
    expect(created()).toEqual({ id: 'wid_1', object: 'widget', name: 'first', renames: 0, metadata: { plan: 'gold' }, livemode: false, created_at: T0, updated_at: T0 });
    expect(created('live')?.livemode).toBe(true);
  });

  it('applies a change on the resource and moves updated_at, never created_at', () => {
    const renamed = widgetView.apply(created(), stored({ type: 'WidgetRenamed', data: { widget_id: 'wid_1', name: 'second' } }, T1));
    expect(renamed).toMatchObject({ name: 'second', renames: 1, created_at: T0, updated_at: T1 });
  });

  it('leaves the resource as it was, updated_at included, for an unchanged event', () => {
    const widget = created();
    expect(widgetView.apply(widget, stored({ type: 'WidgetInspected', data: { widget_id: 'wid_1' } }, T1))).toBe(widget);
  });

  it('removes the resource on a deletion, and knows nothing of a change before the creation', () => {
    expect(widgetView.apply(created(), stored({ type: 'WidgetDeleted', data: { widget_id: 'wid_1' } }, T1))).toBeUndefined();
    expect(widgetView.apply(undefined, stored({ type: 'WidgetRenamed', data: { widget_id: 'wid_1', name: 'second' } }, T1))).toBeUndefined();
  });

  it('keeps user metadata in an object without a prototype, a copy of the event’s', () => {
    const metadata = JSON.parse('{"__proto__":"x","constructor":"y"}') as Record<string, string>;
    const labelled = widgetView.apply(created(), stored({ type: 'WidgetLabelled', data: { widget_id: 'wid_1', metadata } }, T1));
    expect(Object.getPrototypeOf(labelled?.metadata)).toBeNull();
    expect(Object.getPrototypeOf(created()?.metadata)).toBeNull();
    expect(labelled?.metadata).not.toBe(metadata);
    expect(Object.entries(labelled?.metadata ?? {})).toEqual([
      ['__proto__', 'x'],
      ['constructor', 'y'],
    ]);
  });

  it('keeps the metadata object it had when a change gives the same entries, so that it is not among what the change changed', () => {
    const widget = created();
    const relabelled = widgetView.apply(widget, stored({ type: 'WidgetLabelled', data: { widget_id: 'wid_1', metadata: { plan: 'gold' } } }, T1));
    expect(relabelled?.metadata).toBe(widget?.metadata);
  });

  it('publishes each event as its declared type, or as its data decides', () => {
    expect(widgetView.publicType(stored({ type: 'WidgetCreated', data: { widget_id: 'wid_1', name: 'first', metadata: {} } }))).toBe('widget.created');
    expect(widgetView.publicType(stored({ type: 'WidgetRenamed', data: { widget_id: 'wid_1', name: 'second' } }))).toBe('widget.updated');
    expect(widgetView.publicType(stored({ type: 'WidgetRenamed', data: { widget_id: 'wid_1', name: '' } }))).toBeUndefined();
    expect(widgetView.publicType(stored({ type: 'WidgetInspected', data: { widget_id: 'wid_1' } }))).toBeUndefined();
  });

  it('lists every public type it can publish, for the catalogue webhook endpoints subscribe to', () => {
    expect([...widgetView.publicTypes].sort()).toEqual(['widget.created', 'widget.deleted', 'widget.updated']);
  });
});
