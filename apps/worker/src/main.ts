import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { readConfig, CellRegistry } from '@tally/cells';
import { createLog, NestJsonLogger } from '@tally/observability';
import { WorkerAppModule } from '@tally/runtime';
import { CONTEXTS } from '../../contexts';

/** The worker alone (production profile): projections, process managers and timers, no HTTP. */
async function main(): Promise<void> {
  const config = readConfig();
  const app = await NestFactory.createApplicationContext(WorkerAppModule.forRoot(config, CONTEXTS), { logger: new NestJsonLogger(createLog(config)) });
  app.enableShutdownHooks();
  const cells = app.get(CellRegistry);
  process.stdout.write(`Tally worker running for regions ${cells.all().map((c) => c.region).join(', ')}\n`);
}

void main();
