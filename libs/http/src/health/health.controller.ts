import { Controller, Get, HttpCode, ServiceUnavailableException } from '@nestjs/common';
import { ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import { CellRegistry } from '@tally/cells';
import { ApiWithoutKey } from '../openapi/api-authenticated.decorator';
import { ApiProblemResponses } from '../openapi/api-problem-responses.decorator';
import { ApiTag } from '../openapi/api-tags';
import { LivenessResponse, ReadinessResponse } from './health.response';
import { HEALTH_SECTION } from '../openapi/edge-api-sections';

/** Liveness (the process answers) and readiness (every cell's event store and read store answer). */
@Controller('health')
@ApiWithoutKey()
@ApiTag(HEALTH_SECTION)
export class HealthController {
  constructor(private readonly cells: CellRegistry) {}

  @Get('live')
  @ApiOperation({ summary: 'Liveness', description: 'The process answers; for a container’s liveness probe.' })
  @HttpCode(200)
  @ApiOkResponse({ type: LivenessResponse })
  @ApiProblemResponses()
  live(): { status: 'ok' } {
    return { status: 'ok' };
  }

  @Get('ready')
  @ApiOperation({ summary: 'Readiness', description: 'Every region’s event store and read store answer; 503 while one does not.' })
  @ApiOkResponse({ type: ReadinessResponse })
  @ApiProblemResponses({ 503: ['service.unavailable'] })
  async ready(): Promise<{ status: 'ok'; cells: Record<string, 'ok'> }> {
    const cells: Record<string, 'ok'> = {};
    try {
      for (const cell of this.cells.all()) {
        await cell.events.headPosition();
        await cell.readModels.getCheckpoint('health');
        cells[cell.region] = 'ok';
      }
      await this.cells.directory.getCheckpoint('health');
    } catch (error) {
      throw new ServiceUnavailableException(`A store does not answer: ${(error as Error).message}`);
    }
    return { status: 'ok', cells };
  }
}
