import { Controller, Get, Header } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { processMetrics, PROMETHEUS_CONTENT_TYPE, renderPrometheusText, TallyMetrics } from '@tally/observability';
import { ParkedCommandsGauge, ProjectionLag } from '@tally/runtime';

/** `GET /metrics` for Prometheus: open like the health checks, outside `/v1`. */
@Controller('metrics')
@ApiExcludeController()
export class MetricsController {
  constructor(
    private readonly metrics: TallyMetrics,
    private readonly lag: ProjectionLag,
    private readonly parked: ParkedCommandsGauge,
  ) {}

  @Get()
  @Header('Content-Type', PROMETHEUS_CONTENT_TYPE)
  async scrape(): Promise<string> {
    return renderPrometheusText([...this.metrics.families(), await this.lag.collect(), await this.parked.collect(), ...processMetrics()]);
  }
}
