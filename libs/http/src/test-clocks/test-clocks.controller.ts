import { Body, Controller, Delete, HttpCode, Param, Post } from '@nestjs/common';
import { ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import type { RequestContext } from '@tally/cells';
import { assertSandbox, testClockResource, TestClocks, type TestClockResource } from '@tally/runtime';
import { Ctx } from '../auth/context.decorator';
import { API_KEY_AUTH, ApiAuthenticated } from '../openapi/api-authenticated.decorator';
import { API_KEY_PROBLEMS, IDEMPOTENT_PROBLEMS } from '../openapi/problem-codes';
import { ApiIdempotent } from '../openapi/api-idempotent.decorator';
import { ApiProblemResponses } from '../openapi/api-problem-responses.decorator';
import { resourceController } from '../resources/resource-controller';
import { ApiTag } from '../openapi/api-tags';
import { AdvanceTestClockDto, CreateTestClockDto, DeletedTestClockResponse, TestClockResponse } from './test-clock.dto';
import { TEST_CLOCKS_SECTION } from '../openapi/edge-api-sections';

/** Sandbox test clocks (Stripe's): customers created on one live on its time, and advancing it runs their timers. */
@Controller('v1/test-clocks')
@ApiTag(TEST_CLOCKS_SECTION)
@ApiAuthenticated(API_KEY_AUTH)
export class TestClocksController {
  constructor(private readonly clocks: TestClocks) {}

  @Post()
  @HttpCode(200)
  @ApiOperation({ summary: 'Create a test clock', description: 'A sandbox clock frozen at `frozen_time`. Customers created with `test_clock` live on it: their events happen at its time, and their timers fire only when it advances.' })
  @ApiOkResponse({ type: TestClockResponse })
  @ApiIdempotent()
  @ApiProblemResponses(API_KEY_PROBLEMS, IDEMPOTENT_PROBLEMS, { 400: ['test_clock.livemode'] })
  create(@Ctx() context: RequestContext, @Body() body: CreateTestClockDto): Promise<TestClockResource> {
    return this.clocks.create(context, { frozen_time: body.frozen_time, name: body.name ?? null });
  }

  @Post(':id/advance')
  @HttpCode(200)
  @ApiOperation({ summary: 'Advance a test clock', description: 'Moves the clock forward to `frozen_time` (later than its time, by at most two years). Every timer of the clock due by then fires in due order, each at its own time, and the clock is `ready` again.' })
  @ApiOkResponse({ type: TestClockResponse, description: 'The clock, `advancing` until every timer due up to `frozen_time` has fired; poll it until `ready`' })
  @ApiIdempotent()
  @ApiProblemResponses(API_KEY_PROBLEMS, IDEMPOTENT_PROBLEMS, {
    400: ['test_clock.livemode', 'test_clock.advance_backwards', 'test_clock.advance_too_far'],
    404: ['test_clock.not_found'],
    409: ['test_clock.advancing', 'request.concurrent_update'],
  })
  advance(@Ctx() context: RequestContext, @Param('id') id: string, @Body() body: AdvanceTestClockDto): Promise<TestClockResource> {
    return this.clocks.advance(context, id, body.frozen_time);
  }

  @Delete(':id')
  @ApiOperation({ summary: 'Delete a test clock', description: 'Deletes the clock and the customers on it, as Stripe does.' })
  @ApiOkResponse({ type: DeletedTestClockResponse, description: 'The clock is gone, and so are the customers on it' })
  @ApiProblemResponses(API_KEY_PROBLEMS, { 400: ['test_clock.livemode'], 404: ['test_clock.not_found'], 409: ['request.concurrent_update'] })
  async delete(@Ctx() context: RequestContext, @Param('id') id: string): Promise<DeletedTestClockResponse> {
    await this.clocks.delete(context, id);
    return { id, object: 'test_clock', deleted: true };
  }
}

/** The list and the retrieve (with `as_of`), from the resource's definition. */
export const TestClockReadsController = resourceController(testClockResource, {
  path: 'v1/test-clocks', tag: TEST_CLOCKS_SECTION, noun: 'test clock', type: TestClockResponse, operations: 'TestClocksController',
  list: { summary: 'List test clocks', description: 'The sandbox’s test clocks, newest first.' },
  retrieve: { summary: 'Retrieve a test clock', description: 'Poll it after an advance until its status is `ready`. With `as_of`, as it was at that moment, rebuilt from its events (404 before it existed).', problems: { 404: ['test_clock.not_found'] } },
  guard: { check: assertSandbox, problems: { 400: ['test_clock.livemode'] } },
});
