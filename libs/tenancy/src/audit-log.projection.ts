import { createHash } from 'node:crypto';
import { canonicalJson } from '@tally/kernel';
import { asEventOf, type Projection } from '@tally/runtime';
import type { TenantEvent } from './domain/tenant.events';

export const AUDIT_LOG = 'audit_log';

export const AUDIT_SUBJECT_TYPES = ['tenant', 'api_key'] as const;
export type AuditSubjectType = (typeof AUDIT_SUBJECT_TYPES)[number];

export interface AuditEntry {
  [field: string]: unknown;
  id: string;
  object: 'audit_entry';
  tenant_id: string;
  actor: string;
  action: string;
  subject_type: AuditSubjectType;
  subject_id: string;
  reason: string | null;
  created_at: string;
  request_id: string | null;
  /** SHA-256 of the affected fields as canonical JSON: proves what changed without repeating it. */
  fields_hash: string;
}

const ACTIONS: Record<TenantEvent['type'], { action: string; subject: (e: TenantEvent) => [AuditEntry['subject_type'], string] }> = {
  TenantCreated: { action: 'tenant.created', subject: (e) => ['tenant', e.data.tenant_id] },
  TenantRenamed: { action: 'tenant.renamed', subject: (e) => ['tenant', e.data.tenant_id] },
  TenantApiVersionPinned: { action: 'tenant.api_version_pinned', subject: (e) => ['tenant', e.data.tenant_id] },
  TenantRateLimitsSet: { action: 'tenant.rate_limits_set', subject: (e) => ['tenant', e.data.tenant_id] },
  ApiKeyCreated: { action: 'api_key.created', subject: (e) => ['api_key', (e.data as { key_id: string }).key_id] },
  ApiKeyRevoked: { action: 'api_key.revoked', subject: (e) => ['api_key', (e.data as { key_id: string }).key_id] },
};

/** Every `action` an audit entry can name. */
export const AUDIT_ACTIONS: readonly string[] = Object.values(ACTIONS).map(({ action }) => action);

/** Immutable audit entries of every operator action on a tenant and its keys, in the tenant's cell. */
export const auditLogProjection: Projection = {
  name: 'audit_log',
  streamPrefixes: ['tenant-'],
  collections: [{ name: AUDIT_LOG, indexes: [{ fields: ['tenant_id', 'created_at'] }, { fields: ['tenant_id', 'subject_type', 'subject_id', 'created_at'] }] }],
  async handle(stored, writer) {
    const event = asEventOf<TenantEvent>(stored);
    const { action, subject } = ACTIONS[event.type];
    const [subjectType, subjectId] = subject(event);
    const { reason, ...fields } = event.data;
    writer.upsert(AUDIT_LOG, {
      id: `aud_${stored.id}`,
      object: 'audit_entry',
      tenant_id: event.data.tenant_id,
      actor: stored.metadata.actor,
      action,
      subject_type: subjectType,
      subject_id: subjectId,
      reason: reason ?? null,
      created_at: stored.metadata.occurred_at,
      request_id: stored.metadata.request_id,
      fields_hash: createHash('sha256').update(canonicalJson(fields)).digest('hex'),
    } satisfies AuditEntry);
  },
};
