import { Global, Module } from '@nestjs/common';
import type { IdGenerator } from '@tally/kernel';
import { CommandRuntime } from '../commands/command-runtime';
import { ParkedCommandsController } from '../processes/parked-commands.controller';
import { ID_GENERATOR } from '../tokens';
import { TestClocks } from './test-clocks';
import { TestClocksController } from './test-clocks.controller';

/** The runtime's own resources: sandbox test clocks (which contexts check before putting a resource on one), and the commands its dispatcher parked. */
@Global()
@Module({
  controllers: [TestClocksController, ParkedCommandsController],
  providers: [{ provide: TestClocks, useFactory: (runtime: CommandRuntime, ids: IdGenerator) => new TestClocks(runtime, ids), inject: [CommandRuntime, ID_GENERATOR] }],
  exports: [TestClocks],
})
export class RuntimeResourcesModule {}
