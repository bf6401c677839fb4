import type { DeliveryTarget, TargetsDoc } from '../outbox/outbox-documents';
import { TargetBook } from './target-book';

const target = (id: string, fields: Partial<DeliveryTarget> = {}): DeliveryTarget => ({ id, url: `https://example.com/${id}`, events: ['*'], status: 'enabled', api_version: '2026-04-01', secrets: [{ revision: 0, expires_at: null }], ...fields });
const doc = (tenant: string, ...endpoints: DeliveryTarget[]): TargetsDoc => ({ id: `${tenant}/sandbox`, tenant_id: tenant, environment: 'sandbox', endpoints, changed_at: '' });

describe('the target book', () => {
  it('holds each endpoint as its tenant’s document last named it', () => {
    const book = new TargetBook();
    book.see(doc('ten_1', target('we_1'), target('we_2')));
    book.see(doc('ten_2', target('we_3')));
    book.see(doc('ten_1', target('we_1', { status: 'disabled' }), target('we_2', { url: 'https://example.com/moved' })));

    expect(book.get('we_1')?.status).toBe('disabled');
    expect(book.get('we_2')?.url).toBe('https://example.com/moved');
    expect(book.get('we_3')?.url).toBe('https://example.com/we_3');
  });

  it('drops an endpoint its document no longer names, and no other tenant’s', () => {
    const book = new TargetBook();
    book.see(doc('ten_1', target('we_1'), target('we_2')));
    book.see(doc('ten_2', target('we_3')));
    book.see(doc('ten_1', target('we_2')));

    expect(book.get('we_1')).toBeUndefined();
    expect(book.get('we_2')).toBeDefined();
    expect(book.get('we_3')).toBeDefined();
  });
});
