import { Body, Controller, Delete, Headers, HttpCode, Inject, Param, Patch, Post, Res } from '@nestjs/common';
import { ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import type { Response } from 'express';
import { API_KEY_AUTH, API_KEY_PROBLEMS, ApiAuthenticated, ApiIdempotent, ApiProblemResponses, ApiTag, ApiUpdate, Ctx, IDEMPOTENT_PROBLEMS, parseIfMatch, resourceController, withRevision } from '@tally/http';
import { toUtcTimestamp, type Clock, type CommandIntent } from '@tally/kernel';
import { Commands } from '@tally/runtime';
import { CLOCK, type RequestContext } from '@tally/cells';
import type { PlanCommand, RecordPlanReference } from './domain/plan.decider';
import { AddComponentDto, ChangeComponentDto, CreatePlanDto, UpdatePlanDto } from './dto/plan.dto';
import { PlanResponse } from './dto/plan.response';
import { planAggregate, planIdOf } from './plan.aggregate';
import { planAt, type PlanResource } from './plan.view';
import { planResource } from './plan.resource';
import { PLANS_SECTION } from './catalog.api-sections';

const ETAG = { ETag: { description: 'The plan’s revision, for `If-Match`', schema: { type: 'string', example: 'W/"3"' } } };
const PLAN_NOT_FOUND = { 404: ['plan.not_found'] };
const PLAN_CHANGE_PROBLEMS = { 400: ['pricing.invalid', 'plan.effective_at_in_past'], 409: ['plan.deleted', 'request.concurrent_update'] };

/** A plan command as a request states it: the controller adds the plan's id and "now". */
type PlanIntent = CommandIntent<Exclude<PlanCommand, RecordPlanReference>, 'plan_id' | 'at'>;

@Controller('v1/plans')
@ApiAuthenticated(API_KEY_AUTH)
@ApiTag(PLANS_SECTION)
export class PlansController {
  constructor(
    private readonly commands: Commands,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  @Post()
  @ApiOperation({
    summary: 'Create a plan',
    description:
      'A product at a currency and billing interval, with its priced components (flat, per unit, tiered, volume, package or usage; see docs/pricing.md). ' +
      'The `code` names the plan in paths in place of its id; it, the product, the currency and the interval are fixed for good.',
  })
  @HttpCode(200)
  @ApiOkResponse({ type: PlanResponse, headers: ETAG })
  @ApiIdempotent()
  @ApiProblemResponses(API_KEY_PROBLEMS, IDEMPOTENT_PROBLEMS, {
    400: ['money.unknown_currency', 'plan.invalid_interval', 'plan.invalid_dunning_policy', 'plan.duplicate_component', 'pricing.invalid', 'request.invalid_metadata'],
    409: ['plan.code_taken', 'request.concurrent_update'],
  })
  async create(@Ctx() context: RequestContext, @Body() body: CreatePlanDto, @Res({ passthrough: true }) response: Response): Promise<PlanResource> {
    const intent: PlanIntent = { type: 'CreatePlan', data: { ...body, components: body.components ?? [] } };
    return this.run(context, response, body.code, intent);
  }

  @Patch(':plan')
  @ApiOperation({
    summary: 'Update a plan',
    description:
      'Changes the trial, tax behaviour, dunning policy, metadata or status (active ⇄ archived, or deleted while no subscription ever used the plan). ' +
      'The fixed fields may be repeated with their current value; components change through their own routes.',
  })
  @ApiUpdate('plan', { type: PlanResponse, headers: ETAG }, PLAN_NOT_FOUND, {
    400: ['plan.immutable_field', 'plan.components_read_only', 'plan.invalid_dunning_policy', 'request.invalid_metadata'],
    409: ['plan.deleted', 'plan.in_use', 'request.concurrent_update'],
  })
  async update(
    @Ctx() context: RequestContext,
    @Param('plan') plan: string,
    @Body() body: UpdatePlanDto,
    @Headers('if-match') ifMatch: string | undefined,
    @Res({ passthrough: true }) response: Response,
  ): Promise<PlanResource> {
    return this.run(context, response, plan, { type: 'UpdatePlan', data: body }, parseIfMatch(ifMatch));
  }

  @Post(':plan/components')
  @ApiOperation({
    summary: 'Add a component to a plan',
    description: 'A new price version: billing periods that start at or after `effective_at` (default now, so from the next period) include the component.',
  })
  @HttpCode(200)
  @ApiOkResponse({ type: PlanResponse, headers: ETAG, description: 'The plan with its new price version' })
  @ApiIdempotent()
  @ApiProblemResponses(API_KEY_PROBLEMS, IDEMPOTENT_PROBLEMS, PLAN_NOT_FOUND, PLAN_CHANGE_PROBLEMS, { 409: ['plan.component_exists', 'plan.component_change_scheduled'] })
  async addComponent(@Ctx() context: RequestContext, @Param('plan') plan: string, @Body() body: AddComponentDto, @Res({ passthrough: true }) response: Response): Promise<PlanResource> {
    const { effective_at, ...component } = body;
    const intent: PlanIntent = { type: 'AddComponent', data: { ...component, ...(effective_at && { effective_at: toUtcTimestamp(effective_at) }) } };
    return this.run(context, response, plan, intent);
  }

  @Patch(':plan/components/:component')
  @ApiOperation({
    summary: 'Change the pricing of a component',
    description: 'A new price version: billing periods that start at or after `effective_at` (default now, so from the next period) use the new pricing; periods already billed keep theirs.',
  })
  @ApiOkResponse({ type: PlanResponse, headers: ETAG, description: 'The plan with its new price version' })
  @ApiProblemResponses(API_KEY_PROBLEMS, { 404: ['plan.not_found', 'plan.component_not_found'] }, PLAN_CHANGE_PROBLEMS, { 409: ['plan.component_change_scheduled'] })
  async changeComponent(
    @Ctx() context: RequestContext,
    @Param('plan') plan: string,
    @Param('component') code: string,
    @Body() body: ChangeComponentDto,
    @Res({ passthrough: true }) response: Response,
  ): Promise<PlanResource> {
    const { effective_at, ...change } = body;
    const intent: PlanIntent = { type: 'ChangeComponent', data: { ...change, code, ...(effective_at && { effective_at: toUtcTimestamp(effective_at) }) } };
    return this.run(context, response, plan, intent);
  }

  @Delete(':plan/components/:component')
  @ApiOperation({ summary: 'Remove a component from a plan', description: 'A new price version without the component, for billing periods that start from now on.' })
  @ApiOkResponse({ type: PlanResponse, headers: ETAG, description: 'The plan without the component from the next period on' })
  @ApiProblemResponses(API_KEY_PROBLEMS, { 404: ['plan.not_found', 'plan.component_not_found'], 409: ['plan.deleted', 'plan.component_change_scheduled', 'request.concurrent_update'] })
  async removeComponent(@Ctx() context: RequestContext, @Param('plan') plan: string, @Param('component') code: string, @Res({ passthrough: true }) response: Response): Promise<PlanResource> {
    return this.run(context, response, plan, { type: 'RemoveComponent', data: { code } });
  }

  /** The plan (by code or id; a new plan by its code) after the command, as of the moment it was sent. */
  private async run(context: RequestContext, response: Response, codeOrId: string, intent: PlanIntent, expectedRevision?: number): Promise<PlanResource> {
    const at = this.clock.now().toISOString();
    const plan_id = planIdOf(context, codeOrId);
    const command = { type: intent.type, data: { ...intent.data, plan_id, at } } as PlanCommand;
    const written = withRevision(response, await this.commands.send(planAggregate, plan_id, command, context, { expectedRevision }));
    return planAt(written.resource!, at);
  }
}

/** The list and the retrieve (with `as_of`), from the resource's definition. */
export const PlanReadsController = resourceController(planResource, {
  path: 'v1/plans', param: 'plan', tag: PLANS_SECTION, noun: 'plan', type: PlanResponse, etag: ETAG, operations: 'PlansController',
  list: { summary: 'List plans', description: 'Newest first by default; filter by code, product, status, currency, and creation and update time.' },
  retrieve: { summary: 'Retrieve a plan', description: 'By id or code, with its components and price versions; a deleted plan still reads, with `status: deleted`. With `as_of`, as it was at that moment, rebuilt from its events (404 before it existed).', problems: PLAN_NOT_FOUND },
});
