import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { Module } from '@nestjs/common';
import { PlatformModule, readConfig, CellRegistry, createLog, NestJsonLogger, RuntimeResourcesModule, WorkerModule } from '@tally/platform';
import { CONTEXTS } from './contexts';

/** The worker alone (production profile): projections, process managers and timers, no HTTP. */
async function main(): Promise<void> {
  const config = readConfig();

  @Module({ imports: [PlatformModule.forRoot({ config, pii: CONTEXTS.pii, upcasters: CONTEXTS.upcasters }), RuntimeResourcesModule, WorkerModule.forRoot(CONTEXTS)] })
  class WorkerAppModule {}

  const app = await NestFactory.createApplicationContext(WorkerAppModule, { logger: new NestJsonLogger(createLog(config)) });
  app.enableShutdownHooks();
  const cells = app.get(CellRegistry);
  process.stdout.write(`Tally worker running for regions ${cells.all().map((c) => c.region).join(', ')}\n`);
}

void main();
