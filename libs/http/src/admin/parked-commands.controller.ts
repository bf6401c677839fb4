import { Controller, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiProperty } from '@nestjs/swagger';
import type { RequestContext } from '@tally/cells';
import { PARKED_COMMANDS, ParkedCommands, ScopedReads, type ListPage, type ListSpec, type ParkedCommandDoc } from '@tally/runtime';
import { Ctx } from '../auth/context.decorator';
import type { KnownFields } from '../openapi/known-fields';
import { API_KEY_AUTH, ApiAuthenticated } from '../openapi/api-authenticated.decorator';
import { ApiIdempotent } from '../openapi/api-idempotent.decorator';
import { API_KEY_PROBLEMS, IDEMPOTENT_PROBLEMS, LIST_PROBLEMS } from '../openapi/problem-codes';
import { ApiListResponse } from '../openapi/api-list-response.decorator';
import { ApiProblemResponses } from '../openapi/api-problem-responses.decorator';
import { ApiTag } from '../openapi/api-tags';
import { ADMIN_SECTION } from '../openapi/edge-api-sections';

type ParkedCommand = { [field: string]: unknown } & Pick<ParkedCommandDoc, 'id' | 'object' | 'process' | 'process_id' | 'type' | 'attempts' | 'last_error' | 'created_at'>;

export class ParkedCommandResponse implements KnownFields<ParkedCommand> {
  @ApiProperty({ example: 'cmd_01JD…', description: 'The command id, derived from the process and its input' }) id!: string;
  @ApiProperty({ enum: ['parked_command'] }) object!: 'parked_command';
  @ApiProperty({ example: 'tax_id_validation' }) process!: string;
  @ApiProperty({ example: 'txi_01JD…' }) process_id!: string;
  @ApiProperty({ example: 'ValidateTaxId' }) type!: string;
  @ApiProperty({ example: 5 }) attempts!: number;
  @ApiProperty({ example: 'connect ECONNREFUSED' }) last_error!: string;
  @ApiProperty({ format: 'date-time' }) created_at!: string;
}

const PARKED_LIST: ListSpec = {
  sortable: ['created_at'],
  filters: { process: { ops: ['eq', 'in'] }, created_at: { ops: ['gte', 'gt', 'lte', 'lt'], type: 'timestamp' } },
};

/** Commands of the tenant's flows that failed every dispatch attempt, or were refused where a refusal must not be dropped, for operators to look into. */
@Controller('v1/admin/parked-commands')
@ApiTag(ADMIN_SECTION)
@ApiAuthenticated(API_KEY_AUTH)
export class ParkedCommandsController {
  constructor(
    private readonly reads: ScopedReads,
    private readonly parked: ParkedCommands,
  ) {}

  @Get()
  @ApiOperation({ summary: 'List parked commands', description: 'Commands of the tenant’s flows that failed every dispatch attempt (an outage), or were refused where work would otherwise be left undone (a subscription’s invoice that cannot be built or finalised; `last_error` starts with the refusal’s code), and were not retried since; they are not retried on their own.' })
  @ApiListResponse(ParkedCommandResponse, PARKED_LIST)
  @ApiProblemResponses(API_KEY_PROBLEMS, LIST_PROBLEMS)
  list(@Ctx() context: RequestContext, @Query() params: Record<string, unknown>): Promise<ListPage<ParkedCommand>> {
    return this.reads.page<ParkedCommand>(context, PARKED_COMMANDS, params, PARKED_LIST);
  }

  @Post(':id/retry')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Retry a parked command',
    description: 'Dispatches the command again once its cause is fixed, with the same attempts; it leaves the list, and comes back if it fails every attempt again. The command keeps its id, so a target that applied it already changes nothing.',
  })
  @ApiOkResponse({ type: ParkedCommandResponse, description: 'The command as it was parked; its dispatch happens in the background' })
  @ApiIdempotent()
  @ApiProblemResponses(API_KEY_PROBLEMS, IDEMPOTENT_PROBLEMS, { 404: ['parked_command.not_found'] })
  retry(@Ctx() context: RequestContext, @Param('id') id: string): Promise<ParkedCommand> {
    return this.parked.retry(context, id);
  }
}
