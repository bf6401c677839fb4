import type { PublicEventDoc } from '@tally/runtime';
import type { ApiVersion } from './api-versions';
import { transformersDownTo } from './version-transformers';
import { isFields, type Fields, type VersionTransformer } from './version-transformer';

/**
 * A body in the current version, as `target` shows it: every transformer from the current version
 * down to `target` is applied in order, to every resource in the body whatever its depth (list
 * items, nested and expanded resources, events' `data` and `previous_attributes`).
 */
export function downgrade(body: unknown, target: ApiVersion): unknown {
  return transformersDownTo(target).reduce(applyEverywhere, body);
}

/** A webhook payload (a public event) as an endpoint pinned to `target` receives it. */
export const downgradeWebhookPayload = (event: PublicEventDoc, target: ApiVersion): PublicEventDoc => downgrade(event, target) as PublicEventDoc;

/** Rewrites every resource of the transformer's types in `value`; metadata is the client's own data, never a resource. */
function applyEverywhere(value: unknown, transformer: VersionTransformer): unknown {
  if (Array.isArray(value)) return value.map((item) => applyEverywhere(item, transformer));
  if (!isFields(value)) return value;
  const walked = Object.fromEntries(Object.entries(value).map(([field, inner]) => [field, field === 'metadata' ? inner : applyEverywhere(inner, transformer)]));
  if (walked.object === 'event') return withPreviousAttributes(walked, transformer);
  return appliesTo(transformer, walked) ? transformer.transform(walked) : walked;
}

/** `previous_attributes` carries no `object`: it is rewritten as a part of the event's resource. */
function withPreviousAttributes(event: Fields, transformer: VersionTransformer): Fields {
  const previous = event.previous_attributes;
  if (!isFields(previous) || !isFields(event.data) || !appliesTo(transformer, event.data)) return event;
  return { ...event, previous_attributes: transformer.transform(previous) };
}

const appliesTo = (transformer: VersionTransformer, resource: Fields): boolean =>
  typeof resource.object === 'string' && transformer.objects.includes(resource.object);
