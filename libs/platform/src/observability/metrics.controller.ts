import { Controller, Get, Header } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { processMetrics } from './process-metrics';
import { ProjectionLag } from './projection-lag';
import { PROMETHEUS_CONTENT_TYPE, renderPrometheusText } from './prometheus-text';
import { TallyMetrics } from './tally-metrics';

/** `GET /metrics` for Prometheus: open like the health checks, outside `/v1`. */
@Controller('metrics')
@ApiExcludeController()
export class MetricsController {
  constructor(
    private readonly metrics: TallyMetrics,
    private readonly lag: ProjectionLag,
  ) {}

  @Get()
  @Header('Content-Type', PROMETHEUS_CONTENT_TYPE)
  async scrape(): Promise<string> {
    return renderPrometheusText([...this.metrics.families(), await this.lag.collect(), ...processMetrics()]);
  }
}
