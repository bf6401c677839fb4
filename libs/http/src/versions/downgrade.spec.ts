import type { PublicEventDoc } from '@tally/runtime';
import { API_VERSIONS, CURRENT_API_VERSION } from './api-versions';
import { downgrade, downgradeWebhookPayload } from './downgrade';
import { VERSION_TRANSFORMERS } from './version-transformers';

const deepFreeze = <T>(value: T): T => {
  if (typeof value === 'object' && value !== null) Object.values(value).forEach(deepFreeze);
  return Object.freeze(value);
};

const failedPayment = (retriableField: 'is_retriable' | 'retriable') => ({
  id: 'pay_2',
  object: 'payment',
  invoice_id: 'inv_1',
  status: 'failed',
  amount: '12.10',
  last_error: { code: 'card_declined', [retriableField]: true },
});

/** A list in the current version: an untaxed invoice embedding its failed payment, and a taxed one. */
const currentList = deepFreeze({
  object: 'list',
  data: [
    { id: 'inv_1', object: 'invoice', subtotal: '12.10', tax: '0.00', total: '12.10', payments: ['pay_1', 'pay_2'], latest_payment: failedPayment('is_retriable') },
    { id: 'inv_2', object: 'invoice', subtotal: '10.00', tax: '2.10', total: '12.10', payments: [], metadata: { object: 'invoice', tax: '0' } },
  ],
  has_more: false,
  next_cursor: null,
});

const event = (data: object, previous: object): PublicEventDoc => ({
  id: 'evt_1',
  object: 'event',
  type: 'payment.updated',
  occurred_at: '2026-05-01T10:00:00.000Z',
  created_at: '2026-05-01T10:00:00.000Z',
  schema_version: 1,
  tenant_id: 'ten_1',
  environment: 'live',
  aggregate_type: 'payment',
  aggregate_id: 'pay_2',
  sequence: 3,
  data: data as PublicEventDoc['data'],
  previous_attributes: previous as Record<string, unknown>,
  request: { id: null },
});

describe('downgrade (the version chain)', () => {
  it('serves the current version as it is', () => {
    expect(downgrade(currentList, CURRENT_API_VERSION)).toEqual(currentList);
  });

  it('serves 2025-10-01 with the 2026-04-01 changes undone, in lists and nested resources', () => {
    expect(downgrade(currentList, '2025-10-01')).toEqual({
      object: 'list',
      data: [
        { id: 'inv_1', object: 'invoice', subtotal: '12.10', tax: '0.00', total: '12.10', payments: 'pay_2', latest_payment: failedPayment('retriable') },
        { id: 'inv_2', object: 'invoice', subtotal: '10.00', tax: '2.10', total: '12.10', payments: null, metadata: { object: 'invoice', tax: '0' } },
      ],
      has_more: false,
      next_cursor: null,
    });
  });

  it('serves 2025-04-01 exactly as 2025-10-01: no shape changed between them', () => {
    expect(downgrade(currentList, '2025-04-01')).toEqual(downgrade(currentList, '2025-10-01'));
  });

  it('serves 2024-10-01 with every change undone', () => {
    expect(downgrade(currentList, '2024-10-01')).toEqual({
      object: 'list',
      data: [
        { id: 'inv_1', object: 'invoice', subtotal: '12.10', total: '12.10', payments: 'pay_2', latest_payment: failedPayment('retriable') },
        { id: 'inv_2', object: 'invoice', subtotal: '10.00', tax: '2.10', total: '12.10', payments: null, metadata: { object: 'invoice', tax: '0' } },
      ],
      has_more: false,
      next_cursor: null,
    });
  });

  it('downgrades an event’s data and previous_attributes (a webhook payload)', () => {
    const current = deepFreeze(event(failedPayment('is_retriable'), { status: 'processing', last_error: { code: 'expired_card', is_retriable: false } }));
    expect(downgradeWebhookPayload(current, '2024-10-01')).toEqual(
      event(failedPayment('retriable'), { status: 'processing', last_error: { code: 'expired_card', retriable: false } }),
    );
  });

  it('rewrites previous_attributes only with the transformers of the event’s resource', () => {
    const current = deepFreeze(event({ id: 'cus_1', object: 'customer' }, { payments: ['pay_1'], tax: '0' }));
    expect(downgradeWebhookPayload(current, '2024-10-01')).toEqual(current);
  });

  it('leaves bodies that are not JSON objects alone', () => {
    const at = new Date('2026-05-01T10:00:00.000Z');
    expect(downgrade(undefined, '2024-10-01')).toBeUndefined();
    expect(downgrade('ok', '2024-10-01')).toBe('ok');
    expect(downgrade({ object: 'invoice', tax: '0', at }, '2024-10-01')).toEqual({ object: 'invoice', at });
  });
});

describe('the chain of transformers', () => {
  it('steps each from a version to the one just before it, newest change first', () => {
    const steps = VERSION_TRANSFORMERS.map(({ from, to }) => [API_VERSIONS.indexOf(from), API_VERSIONS.indexOf(to)]);
    for (const [from, to] of steps) expect(to).toBe(from - 1);
    expect(steps.map(([from]) => from)).toEqual([...steps.map(([from]) => from)].sort((a, b) => b - a));
  });

  it('has unique names', () => {
    const names = VERSION_TRANSFORMERS.map((transformer) => transformer.name);
    expect(new Set(names).size).toBe(names.length);
  });
});
