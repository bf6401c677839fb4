import { Controller, Get, Query } from '@nestjs/common';
import { ApiOperation } from '@nestjs/swagger';
import { ADMIN_SECTION, API_KEY_AUTH, API_KEY_PROBLEMS, ApiAuthenticated, ApiListResponse, ApiProblemResponses, ApiTag, Ctx, LIST_PROBLEMS } from '@tally/http';
import { CellRegistry, type RequestContext } from '@tally/cells';
import { parseListQuery, toPage, type ListPage, type ListSpec } from '@tally/runtime';
import { AUDIT_ACTIONS, AUDIT_LOG, AUDIT_SUBJECT_TYPES, type AuditEntry } from './audit-log.projection';
import { AuditEntryResponse } from './dto/audit-entry.response';

const AUDIT_LIST: ListSpec = {
  sortable: ['created_at'],
  filters: {
    subject_type: { ops: ['eq', 'in'], values: AUDIT_SUBJECT_TYPES },
    subject_id: { ops: ['eq', 'in'] },
    action: { ops: ['eq', 'in', 'starts'], values: AUDIT_ACTIONS },
    created_at: { ops: ['gte', 'gt', 'lte', 'lt'], type: 'timestamp' },
  },
};

/** The tenant's audit log: operator actions on the tenant and its keys, in both environments. */
@Controller('v1/admin/audit-log')
@ApiAuthenticated(API_KEY_AUTH)
@ApiTag(ADMIN_SECTION)
export class AuditLogController {
  constructor(private readonly cells: CellRegistry) {}

  @Get()
  @ApiOperation({ summary: 'List the audit log', description: 'Operator actions on your account and its keys, in both environments, each with its actor, reason and request id; newest first by default.' })
  @ApiListResponse(AuditEntryResponse, AUDIT_LIST)
  @ApiProblemResponses(API_KEY_PROBLEMS, LIST_PROBLEMS)
  async list(@Ctx() context: RequestContext, @Query() params: Record<string, unknown>): Promise<ListPage<AuditEntry>> {
    const cell = this.cells.cell(context.region);
    const cursors = cell.cursors.forList(AUDIT_LOG);
    const query = parseListQuery(params, AUDIT_LIST, cursors);
    const scoped = { ...query, where: [{ field: 'tenant_id', op: 'eq' as const, value: context.tenantId }, ...(query.where ?? [])] };
    return toPage(await cell.readModels.find<AuditEntry>(AUDIT_LOG, scoped), query, (entry) => entry, cursors);
  }
}
