import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { Module } from '@nestjs/common';
import { PlatformModule, readConfig, CellRegistry, createLog, NestJsonLogger, RuntimeResourcesModule } from '@tally/platform';
import { PII_FIELDS, UPCASTERS } from './composition';
import { WorkerModule } from './worker.module';

/** The worker alone (production profile): projections, process managers and timers, no HTTP. */
async function main(): Promise<void> {
  const config = readConfig();

  @Module({ imports: [PlatformModule.forRoot({ config, pii: PII_FIELDS, upcasters: UPCASTERS }), RuntimeResourcesModule, WorkerModule.forRoot()] })
  class WorkerAppModule {}

  const app = await NestFactory.createApplicationContext(WorkerAppModule, { logger: new NestJsonLogger(createLog(config)) });
  app.enableShutdownHooks();
  const cells = app.get(CellRegistry);
  process.stdout.write(`Tally worker running for regions ${cells.all().map((c) => c.region).join(', ')}\n`);
}

void main();
