import { Body, Controller, Get, HttpCode, Inject, Optional, Param, Patch, Post, Query, Req } from '@nestjs/common';
import { ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import type { Request } from 'express';
import type { IdGenerator } from '@tally/kernel';
import { ApiAuthenticated, ApiIdempotent, ApiListResponse, ApiProblemResponses, ApiTag, IDEMPOTENT_PROBLEMS, LIST_PROBLEMS, OPERATOR_KEY_AUTH, OPERATOR_PROBLEMS, traceIdOf, TENANTS, type TenantEntry } from '@tally/http';
import { CellRegistry, ID_GENERATOR, REGIONS, type Region } from '@tally/cells';
import { CommandRuntime, parseListQuery, ReadYourWrites, toPage, type ListPage, type ListSpec } from '@tally/runtime';
import { CreateApiKeyDto, CreateTenantDto, ReasonDto, UpdateTenantDto } from './dto/tenant.dto';
import { ApiKeyResponse, TenantEntryResponse, TenantResponse } from './dto/tenant.response';
import { tenantAggregate } from './tenant.aggregate';
import { TenantAdministration, tenantContext, type IssuedKey, type OperatorRequest } from './tenant-administration';
import { TenantLookup } from './tenant-lookup';
import type { ApiKeyResource, TenantResource } from './tenant.view';
import { OPERATOR_SECTION } from './tenancy.api-sections';

const TENANT_LIST: ListSpec = { sortable: ['created_at', 'name'], filters: { region: { ops: ['eq', 'in'], values: REGIONS }, name: { ops: ['eq', 'starts'] } } };

/** The operator's API (`Authorization: Bearer <TALLY_OPERATOR_KEY>`): tenants, their region, version pin, limits and keys. */
@Controller('v1/operator/tenants')
@ApiAuthenticated(OPERATOR_KEY_AUTH)
@ApiTag(OPERATOR_SECTION)
export class OperatorController {
  private readonly administration: TenantAdministration;

  constructor(
    private readonly runtime: CommandRuntime,
    private readonly cells: CellRegistry,
    private readonly lookup: TenantLookup,
    @Inject(ID_GENERATOR) ids: IdGenerator,
    @Optional() private readonly writes?: ReadYourWrites,
  ) {
    this.administration = new TenantAdministration(runtime, ids);
  }

  @Post()
  @ApiOperation({ summary: 'Create a tenant', description: 'A tenant in a region it keeps for good, with a live and a sandbox API key, whose secrets this response shows once.' })
  @HttpCode(200)
  @ApiOkResponse({ type: TenantResponse, description: 'The tenant, with the secrets of its new live and sandbox keys (shown once)' })
  @ApiIdempotent()
  @ApiProblemResponses(OPERATOR_PROBLEMS, IDEMPOTENT_PROBLEMS, { 400: ['tenant.invalid_name', 'tenant.invalid_region'] })
  async create(@Body() body: CreateTenantDto, @Req() request: Request): Promise<TenantResource> {
    const { tenantId, keys } = await this.administration.createTenant(body.name, body.region, operator(request, body));
    await this.directoryShowsWrites();
    return this.tenant(tenantId, body.region, keys);
  }

  @Get()
  @ApiOperation({ summary: 'List tenants', description: 'Every tenant of every region, newest first by default; filter by region or name.' })
  @ApiListResponse(TenantEntryResponse, TENANT_LIST)
  @ApiProblemResponses(OPERATOR_PROBLEMS, LIST_PROBLEMS)
  async list(@Query() params: Record<string, unknown>): Promise<ListPage<TenantEntry>> {
    const cursors = this.cells.directoryCursors.forList(TENANTS);
    const query = parseListQuery(params, TENANT_LIST, cursors);
    return toPage(await this.cells.directory.find<TenantEntry>(TENANTS, query), query, (entry) => entry, cursors);
  }

  @Get(':id')
  @ApiOperation({ summary: 'Retrieve a tenant', description: 'With its version pin, raised rate limits and API keys (without their secrets).' })
  @ApiOkResponse({ type: TenantResponse })
  @ApiProblemResponses(OPERATOR_PROBLEMS, { 404: ['tenant.not_found'] })
  async retrieve(@Param('id') id: string): Promise<TenantResource> {
    return this.tenant(id, await this.lookup.regionOf(id));
  }

  @Patch(':id')
  @ApiOperation({
    summary: 'Update a tenant',
    description: 'Renames it, pins the API version its requests default to, or raises its rate limits. The region cannot change: only the current one is accepted.',
  })
  @ApiOkResponse({ type: TenantResponse })
  @ApiProblemResponses(OPERATOR_PROBLEMS, {
    400: ['tenant.invalid_name', 'tenant.invalid_rate_limits'],
    404: ['tenant.not_found'],
    409: ['tenant.region_immutable', 'request.concurrent_update'],
  })
  async update(@Param('id') id: string, @Body() body: UpdateTenantDto, @Req() request: Request): Promise<TenantResource> {
    const region = await this.lookup.regionOf(id);
    const { reason: _reason, ...changes } = body;
    await this.administration.updateTenant(id, region, changes, operator(request, body));
    await this.directoryShowsWrites();
    return this.tenant(id, region);
  }

  @Post(':id/api-keys')
  @ApiOperation({ summary: 'Issue an API key', description: 'A new live or sandbox key beside the existing ones; its secret is shown once.' })
  @HttpCode(200)
  @ApiOkResponse({ type: ApiKeyResponse, description: 'The new key, with its secret (shown once)' })
  @ApiIdempotent()
  @ApiProblemResponses(OPERATOR_PROBLEMS, IDEMPOTENT_PROBLEMS, { 404: ['tenant.not_found'], 409: ['request.concurrent_update'] })
  async createKey(@Param('id') id: string, @Body() body: CreateApiKeyDto, @Req() request: Request): Promise<ApiKeyResource> {
    const region = await this.lookup.regionOf(id);
    return this.issued(id, region, await this.administration.issueKey(id, region, body.environment, operator(request, body)));
  }

  @Post(':id/api-keys/:keyId/roll')
  @ApiOperation({ summary: 'Roll an API key', description: 'Revokes the key and issues its replacement, whose secret is shown once.' })
  @HttpCode(200)
  @ApiOkResponse({ type: ApiKeyResponse, description: 'The new key, with its secret (shown once); the old one is revoked' })
  @ApiIdempotent()
  @ApiProblemResponses(OPERATOR_PROBLEMS, IDEMPOTENT_PROBLEMS, { 404: ['tenant.not_found', 'api_key.not_found'], 409: ['api_key.revoked', 'request.concurrent_update'] })
  async rollKey(@Param('id') id: string, @Param('keyId') keyId: string, @Body() body: ReasonDto, @Req() request: Request): Promise<ApiKeyResource> {
    const region = await this.lookup.regionOf(id);
    return this.issued(id, region, await this.administration.rollKey(id, region, keyId, operator(request, body)));
  }

  @Post(':id/api-keys/:keyId/revoke')
  @ApiOperation({ summary: 'Revoke an API key', description: 'Requests with the key are refused from then on; revoking it again changes nothing.' })
  @HttpCode(200)
  @ApiOkResponse({ type: ApiKeyResponse, description: 'The revoked key' })
  @ApiIdempotent()
  @ApiProblemResponses(OPERATOR_PROBLEMS, IDEMPOTENT_PROBLEMS, { 404: ['tenant.not_found', 'api_key.not_found'], 409: ['request.concurrent_update'] })
  async revokeKey(@Param('id') id: string, @Param('keyId') keyId: string, @Body() body: ReasonDto, @Req() request: Request): Promise<ApiKeyResource> {
    const region = await this.lookup.regionOf(id);
    await this.administration.revokeKey(id, region, keyId, operator(request, body));
    await this.directoryShowsWrites();
    return (await this.tenant(id, region)).api_keys.find((k) => k.id === keyId)!;
  }

  /**
   * What the operator changed is what the next request meets: a raised limit counted, a revoked
   * key refused. The keys and limits are read from the directory (bounded wait, see ReadYourWrites).
   */
  private async directoryShowsWrites(): Promise<void> {
    await this.writes?.awaitDirectory();
  }

  /** The tenant rebuilt from its stream (read-your-write), with the secrets of keys issued just now. */
  private async tenant(id: string, region: Region, issued: IssuedKey[] = []): Promise<TenantResource> {
    const context = tenantContext(id, region);
    const tenant = (await this.runtime.load(this.cells.cell(region), tenantAggregate, id, context)).resource!;
    const secrets = new Map(issued.map((k) => [k.key_id, k.secret]));
    return { ...tenant, api_keys: tenant.api_keys.map((k) => (secrets.has(k.id) ? { ...k, secret: secrets.get(k.id) } : k)) };
  }

  /** A key just issued, with its secret, once the directory knows it. */
  private async issued(id: string, region: Region, issued: IssuedKey): Promise<ApiKeyResource> {
    await this.directoryShowsWrites();
    return (await this.tenant(id, region, [issued])).api_keys.find((k) => k.id === issued.key_id)!;
  }
}

const operator = (request: Request, body: ReasonDto): OperatorRequest => ({ actor: 'operator', requestId: traceIdOf(request), reason: body.reason ?? null });
