import { ApiProperty } from '@nestjs/swagger';
import type { KnownFields } from '@tally/http';
import { AUDIT_ACTIONS, AUDIT_SUBJECT_TYPES, type AuditEntry, type AuditSubjectType } from '../audit-log.projection';

/** One operator action on the tenant or one of its keys. */
export class AuditEntryResponse implements KnownFields<AuditEntry> {
  @ApiProperty({ example: 'aud_01JD…' }) id!: string;
  @ApiProperty({ enum: ['audit_entry'] }) object!: 'audit_entry';
  @ApiProperty({ example: 'ten_01JD…' }) tenant_id!: string;
  @ApiProperty({ example: 'operator' }) actor!: string;
  @ApiProperty({ enum: AUDIT_ACTIONS, example: 'api_key.revoked' }) action!: string;
  @ApiProperty({ enum: AUDIT_SUBJECT_TYPES }) subject_type!: AuditSubjectType;
  @ApiProperty({ example: 'key_01JD…' }) subject_id!: string;
  @ApiProperty({ type: String, nullable: true, description: 'Why, as the operator said' }) reason!: string | null;
  @ApiProperty({ format: 'date-time' }) created_at!: string;
  @ApiProperty({ type: String, nullable: true, description: 'The `Request-Id` of the operator’s request' }) request_id!: string | null;
  @ApiProperty({ pattern: '^[0-9a-f]{64}$', description: 'SHA-256 of the changed fields as canonical JSON: proves what changed without repeating it' }) fields_hash!: string;
}
