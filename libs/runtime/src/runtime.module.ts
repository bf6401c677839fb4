import { Global, Module } from '@nestjs/common';
import { CqrsModule } from '@nestjs/cqrs';
import type { Clock, IdGenerator } from '@tally/kernel';
import { CellRegistry, CLOCK, ID_GENERATOR } from '@tally/cells';
import { Clocks } from './clocks/clocks';
import { TestClocks } from './clocks/test-clocks';
import { CommandRuntime } from './commands/command-runtime';
import { Commands, SendToAggregateHandler } from './commands/commands';
import { ParkedCommands } from './processes/parked-commands';
import { ScopedReads } from './queries/scoped-reads';
import { ReadYourWrites } from './queries/read-your-writes';
import { ResourceReads } from './resources/resource-reads';

/** The runtime every context's handlers, queries and process managers use: clocks, the command runtime and `Commands`, scoped reads and resource reads, test clocks, parked commands. */
@Global()
@Module({
  imports: [CqrsModule.forRoot()],
  providers: [
    { provide: Clocks, useFactory: (clock: Clock) => new Clocks(clock), inject: [CLOCK] },
    { provide: CommandRuntime, useFactory: (cells: CellRegistry, clocks: Clocks, ids: IdGenerator) => new CommandRuntime(cells, clocks, ids), inject: [CellRegistry, Clocks, ID_GENERATOR] },
    SendToAggregateHandler,
    Commands,
    {
      provide: ScopedReads,
      useFactory: (cells: CellRegistry, writes?: ReadYourWrites) => new ScopedReads(cells, writes),
      // The API's (see ReadYourWritesModule); the worker's reads do without.
      inject: [CellRegistry, { token: ReadYourWrites, optional: true }],
    },
    {
      provide: ResourceReads,
      useFactory: (reads: ScopedReads, runtime: CommandRuntime, clock: Clock) => new ResourceReads(reads, runtime, clock),
      inject: [ScopedReads, CommandRuntime, CLOCK],
    },
    { provide: TestClocks, useFactory: (runtime: CommandRuntime, ids: IdGenerator) => new TestClocks(runtime, ids), inject: [CommandRuntime, ID_GENERATOR] },
    {
      provide: ParkedCommands,
      useFactory: (cells: CellRegistry, reads: ScopedReads, clocks: Clocks, ids: IdGenerator) => new ParkedCommands(cells, reads, clocks, ids),
      inject: [CellRegistry, ScopedReads, Clocks, ID_GENERATOR],
    },
  ],
  exports: [CqrsModule, Clocks, CommandRuntime, Commands, ScopedReads, ResourceReads, TestClocks, ParkedCommands],
})
export class RuntimeModule {}
