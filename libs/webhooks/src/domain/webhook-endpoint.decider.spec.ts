import { DeciderSpecification } from '@tally/kernel/testing/decider-spec';
import { eventCatalogue } from './event-types';
import { webhookEndpointDecider, type CreateWebhookEndpoint } from './webhook-endpoint.decider';
import type { WebhookEndpointCreated, WebhookEndpointEvent } from './webhook-endpoint.events';

const spec = DeciderSpecification.for(webhookEndpointDecider);
const id = 'we_01JENDPOINT0000000000000';
const catalogue = eventCatalogue(['invoice.paid', 'invoice.finalized', 'subscription.created', 'tax.settings.updated']);
const endpoint = { webhook_endpoint_id: id, url: 'https://example.com/hooks', events: ['invoice.paid', 'subscription.*'], description: null, api_version: '2026-04-01', secret: 'whsec_a' };
const create = (overrides: Partial<CreateWebhookEndpoint['data']> = {}): CreateWebhookEndpoint => ({ type: 'CreateWebhookEndpoint', data: { ...endpoint, livemode: true, catalogue, ...overrides } });
const created: WebhookEndpointCreated = { type: 'WebhookEndpointCreated', data: endpoint };
const deleted: WebhookEndpointEvent = { type: 'WebhookEndpointDeleted', data: { webhook_endpoint_id: id } };
const failure = { webhook_endpoint_id: id, delivery_id: 'del_1', event_id: 'evt_1', event_type: 'invoice.paid', attempts: 7, failed_at: '2026-05-02T10:00:00.000Z' };

describe('webhook endpoint decider', () => {
  describe('CreateWebhookEndpoint', () => {
    it('creates the endpoint with its secret', () => spec.given([]).when(create()).then([created]));

    it('does nothing when it exists (a retried create)', () => spec.given([created]).when(create()).thenNothingHappens());

    it('takes `*` and category patterns', () =>
      spec.given([]).when(create({ events: ['*', 'invoice.*', 'tax.*'] })).then([{ ...created, data: { ...endpoint, events: ['*', 'invoice.*', 'tax.*'] } }]));

    it('takes the spec’s `service.*` family of platform notices, though no notice type exists yet', () =>
      spec.given([]).when(create({ events: ['service.*'] })).then([{ ...created, data: { ...endpoint, events: ['service.*'] } }]));

    it('refuses an unknown type, naming its place', () => {
      spec.given([]).when(create({ events: ['invoice.paid', 'invoice.exploded'] })).thenFails('webhook_endpoint.unknown_event_type');
      expect(() => webhookEndpointDecider.decide(create({ events: ['invoice.paid', 'nope.*'] }), { status: 'none' })).toThrow(expect.objectContaining({ fields: [expect.objectContaining({ field: 'events[1]' })] }));
    });

    it('takes the types of the catalogue its command carries, and no other', () => {
      spec.given([]).when(create({ events: ['customer.created'] })).thenFails('webhook_endpoint.unknown_event_type');
      spec.given([]).when(create({ events: ['customer.created'], catalogue: eventCatalogue(['customer.created']) })).then([{ ...created, data: { ...endpoint, events: ['customer.created'] } }]);
    });

    it('refuses an empty event list', () => spec.given([]).when(create({ events: [] })).thenFails('webhook_endpoint.invalid_events'));

    it('refuses to an endpoint pinned before 2025-10-01 the wallet events and their category, as unknown; `*` stays', () => {
      const withWallets = eventCatalogue(['invoice.paid', 'wallet.credited']);
      for (const events of [['wallet.credited'], ['wallet.*']]) spec.given([]).when(create({ events, api_version: '2025-04-01', catalogue: withWallets })).thenFails('webhook_endpoint.unknown_event_type');
      spec.given([]).when(create({ events: ['*'], api_version: '2025-04-01', catalogue: withWallets })).then([{ ...created, data: { ...endpoint, events: ['*'], api_version: '2025-04-01' } }]);
      spec.given([]).when(create({ events: ['wallet.credited'], api_version: '2025-10-01', catalogue: withWallets })).then([{ ...created, data: { ...endpoint, events: ['wallet.credited'], api_version: '2025-10-01' } }]);
    });

    it('takes https only in live mode', () => {
      spec.given([]).when(create({ url: 'http://127.0.0.1:8080/hooks' })).thenFails('webhook_endpoint.invalid_url');
      spec.given([]).when(create({ url: 'ftp://example.com/hooks' })).thenFails('webhook_endpoint.invalid_url');
      spec.given([]).when(create({ url: 'not a url' })).thenFails('webhook_endpoint.invalid_url');
    });

    it('takes http to a loopback host in sandbox, and no other http', () => {
      for (const url of ['http://127.0.0.1:8080/hooks', 'http://localhost/hooks', 'http://[::1]:9000/']) {
        spec.given([]).when(create({ url, livemode: false })).then([{ ...created, data: { ...endpoint, url } }]);
      }
      spec.given([]).when(create({ url: 'http://example.com/hooks', livemode: false })).thenFails('webhook_endpoint.invalid_url');
    });

    it('refuses credentials in the URL', () => spec.given([]).when(create({ url: 'https://user:pw@example.com/hooks' })).thenFails('webhook_endpoint.invalid_url'));
  });

  describe('UpdateWebhookEndpoint', () => {
    const update = (patch: object) => ({ type: 'UpdateWebhookEndpoint' as const, data: { webhook_endpoint_id: id, livemode: true, catalogue, ...patch } });

    it('records only what changes', () =>
      spec
        .given([created])
        .when(update({ url: endpoint.url, status: 'disabled', description: 'Fulfilment' }))
        .then([{ type: 'WebhookEndpointUpdated', data: { webhook_endpoint_id: id, status: 'disabled', description: 'Fulfilment' } }]));

    it('does nothing when nothing changes', () => spec.given([created]).when(update({ events: endpoint.events, status: 'enabled' })).thenNothingHappens());

    it('checks a new URL and event list as a create does', () => {
      spec.given([created]).when(update({ url: 'http://localhost/hooks' })).thenFails('webhook_endpoint.invalid_url');
      spec.given([created]).when(update({ events: ['charge.succeeded'] })).thenFails('webhook_endpoint.unknown_event_type');
    });

    it('checks a new event list against the endpoint’s own version, whatever the request’s', () => {
      const withWallets = eventCatalogue(['invoice.paid', 'wallet.credited']);
      const pinnedBefore: WebhookEndpointCreated = { type: 'WebhookEndpointCreated', data: { ...endpoint, api_version: '2025-04-01' } };
      spec.given([pinnedBefore]).when(update({ events: ['wallet.credited'], catalogue: withWallets })).thenFails('webhook_endpoint.unknown_event_type');
      spec.given([created]).when(update({ events: ['wallet.credited'], catalogue: withWallets })).then([{ type: 'WebhookEndpointUpdated', data: { webhook_endpoint_id: id, events: ['wallet.credited'] } }]);
    });

    it('refuses an endpoint that does not exist or was deleted', () => {
      spec.given([]).when(update({ status: 'disabled' })).thenFails('webhook_endpoint.not_found');
      spec.given([created, deleted]).when(update({ status: 'disabled' })).thenFails('webhook_endpoint.not_found');
    });
  });

  describe('RotateWebhookEndpointSecret', () => {
    it('records the new secret and when the old one stops', () => {
      const data = { webhook_endpoint_id: id, secret: 'whsec_b', previous_secret_expires_at: '2026-05-02T10:00:00.000Z' };
      spec.given([created]).when({ type: 'RotateWebhookEndpointSecret', data }).then([{ type: 'WebhookEndpointSecretRotated', data }]);
    });
  });

  describe('RecordWebhookDeliveryFailure', () => {
    const record = { type: 'RecordWebhookDeliveryFailure' as const, data: failure };

    it('records a delivery that gave up', () => spec.given([created]).when(record).then([{ type: 'WebhookDeliveryFailed', data: failure }]));

    it('records each delivery once', () => spec.given([created, { type: 'WebhookDeliveryFailed', data: failure }]).when(record).thenNothingHappens());

    it('still records one after the endpoint was deleted (an attempt under way finishes)', () =>
      spec.given([created, deleted]).when(record).then([{ type: 'WebhookDeliveryFailed', data: failure }]));
  });

  describe('DeleteWebhookEndpoint', () => {
    it('deletes it once', () => {
      spec.given([created]).when({ type: 'DeleteWebhookEndpoint', data: { webhook_endpoint_id: id } }).then([deleted]);
      spec.given([created, deleted]).when({ type: 'DeleteWebhookEndpoint', data: { webhook_endpoint_id: id } }).thenFails('webhook_endpoint.not_found');
    });
  });
});
