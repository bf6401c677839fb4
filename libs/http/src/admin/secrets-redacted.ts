import { REDACTED } from '@tally/cells';
import type { AggregateType } from '@tally/runtime';

/** An event's data as the auditors' history shows it: its aggregate type's secret fields as `[redacted]`. */
export function secretsRedacted(type: AggregateType, eventType: string, data: unknown): unknown {
  const secrets = (type.secretFields ?? []).filter((secret) => secret.eventType === eventType);
  if (secrets.length === 0 || typeof data !== 'object' || data === null) return data;
  const shown: Record<string, unknown> = { ...data };
  for (const { field } of secrets) if (Object.hasOwn(shown, field)) shown[field] = REDACTED;
  return shown;
}
