import { DomainError, type Command, type Decider, type FieldError } from '@tally/kernel';
import { endpointUrlProblem } from './endpoint-url';
import { catalogueInVersion, isEventFilter, type EventCatalogue } from './event-types';
import type { WebhookEndpointCreated, WebhookEndpointEvent, WebhookEndpointStatus, WebhookEndpointUpdated } from './webhook-endpoint.events';

export type WebhookEndpointState =
  | { status: 'none' }
  | { status: WebhookEndpointStatus | 'deleted'; id: string; url: string; events: readonly string[]; description: string | null; apiVersion: string; failedDeliveries: readonly string[] };

/** `livemode` decides which URLs are accepted (see endpointUrlProblem); `catalogue`, which event types the filter may name (those of the endpoint's version). */
type EndpointChecks = { livemode: boolean; catalogue: EventCatalogue };
export type CreateWebhookEndpoint = Command<'CreateWebhookEndpoint', WebhookEndpointCreated['data'] & EndpointChecks>;
export type UpdateWebhookEndpoint = Command<'UpdateWebhookEndpoint', Omit<WebhookEndpointUpdated['data'], 'events'> & { events?: readonly string[] } & EndpointChecks>;
export type RotateWebhookEndpointSecret = Command<'RotateWebhookEndpointSecret', { webhook_endpoint_id: string; secret: string; previous_secret_expires_at: string }>;
export type DeleteWebhookEndpoint = Command<'DeleteWebhookEndpoint', { webhook_endpoint_id: string }>;
export type RecordWebhookDeliveryFailure = Command<'RecordWebhookDeliveryFailure', Extract<WebhookEndpointEvent, { type: 'WebhookDeliveryFailed' }>['data']>;
export type WebhookEndpointCommand = CreateWebhookEndpoint | UpdateWebhookEndpoint | RotateWebhookEndpointSecret | DeleteWebhookEndpoint | RecordWebhookDeliveryFailure;

/** Stripe's limit on an endpoint's event list. */
const MAX_FILTER_ENTRIES = 256;
/** Failures an endpoint remembers, so that a redelivered failure is recorded once. */
const REMEMBERED_FAILURES = 100;

export const webhookEndpointNotFound = (id: string) => DomainError.notFound('webhook_endpoint.not_found', `No webhook endpoint ${id}`);

export const webhookEndpointDecider: Decider<WebhookEndpointState, WebhookEndpointCommand, WebhookEndpointEvent> = {
  initialState: () => ({ status: 'none' }),

  decide(command, state) {
    if (command.type === 'CreateWebhookEndpoint') {
      const { livemode, catalogue, ...data } = command.data;
      refuseProblems([endpointUrlProblem(data.url, livemode), ...filterProblems(data.events, catalogueInVersion(catalogue, data.api_version))]);
      return state.status === 'none' ? [{ type: 'WebhookEndpointCreated', data }] : [];
    }
    if (state.status === 'none' || (state.status === 'deleted' && command.type !== 'RecordWebhookDeliveryFailure')) throw webhookEndpointNotFound(command.data.webhook_endpoint_id);
    switch (command.type) {
      case 'UpdateWebhookEndpoint': {
        const { livemode, catalogue, webhook_endpoint_id, ...patch } = command.data;
        refuseProblems([
          patch.url === undefined ? undefined : endpointUrlProblem(patch.url, livemode),
          ...(patch.events === undefined ? [] : filterProblems(patch.events, catalogueInVersion(catalogue, state.apiVersion))),
        ]);
        const changed = changes(state, patch);
        return Object.keys(changed).length === 0 ? [] : [{ type: 'WebhookEndpointUpdated', data: { webhook_endpoint_id, ...changed } }];
      }
      case 'RotateWebhookEndpointSecret':
        return [{ type: 'WebhookEndpointSecretRotated', data: command.data }];
      case 'DeleteWebhookEndpoint':
        return [{ type: 'WebhookEndpointDeleted', data: command.data }];
      case 'RecordWebhookDeliveryFailure':
        return state.failedDeliveries.includes(command.data.delivery_id) ? [] : [{ type: 'WebhookDeliveryFailed', data: command.data }];
    }
  },

  evolve(state, event) {
    if (event.type === 'WebhookEndpointCreated') {
      const { webhook_endpoint_id, url, events, description, api_version } = event.data;
      return { status: 'enabled', id: webhook_endpoint_id, url, events, description, apiVersion: api_version, failedDeliveries: [] };
    }
    if (state.status === 'none') return state;
    switch (event.type) {
      case 'WebhookEndpointUpdated': {
        const { webhook_endpoint_id: _id, ...changed } = event.data;
        return { ...state, ...changed };
      }
      case 'WebhookEndpointSecretRotated':
        return state;
      case 'WebhookEndpointDeleted':
        return { ...state, status: 'deleted' };
      case 'WebhookDeliveryFailed':
        return { ...state, failedDeliveries: [...state.failedDeliveries, event.data.delivery_id].slice(-REMEMBERED_FAILURES) };
    }
  },
};

type Patch = { -readonly [field in keyof Omit<WebhookEndpointUpdated['data'], 'webhook_endpoint_id'>]: WebhookEndpointUpdated['data'][field] };

/** The fields of the patch whose value differs from the endpoint's. */
function changes(state: Extract<WebhookEndpointState, { id: string }>, patch: Patch): Patch {
  const changed: Patch = {};
  if (patch.url !== undefined && patch.url !== state.url) changed.url = patch.url;
  if (patch.events !== undefined && patch.events.join('\n') !== state.events.join('\n')) changed.events = patch.events;
  if (patch.description !== undefined && patch.description !== state.description) changed.description = patch.description;
  if (patch.status !== undefined && patch.status !== state.status) changed.status = patch.status;
  return changed;
}

function filterProblems(events: readonly string[], catalogue: EventCatalogue): FieldError[] {
  if (events.length === 0 || events.length > MAX_FILTER_ENTRIES) {
    return [{ field: 'events', code: 'webhook_endpoint.invalid_events', message: `1 to ${MAX_FILTER_ENTRIES} event types or patterns` }];
  }
  return events.flatMap((entry, index) =>
    isEventFilter(entry, catalogue) ? [] : [{ field: `events[${index}]`, code: 'webhook_endpoint.unknown_event_type', message: `${entry} is not an event type, a category.* pattern or *` }],
  );
}

function refuseProblems(problems: readonly (FieldError | undefined)[]): void {
  const found = problems.filter((problem): problem is FieldError => problem !== undefined);
  if (found.length > 0) throw DomainError.invalid(found[0].code, 'The webhook endpoint is not valid', found);
}
