import { DomainError, type IdGenerator } from '@tally/kernel';
import type { CellRegistry, RequestContext } from '@tally/cells';
import type { Clocks } from '../clocks/clocks';
import { eventMetadata } from '../commands/event-metadata';
import type { ScopedReads } from '../queries/scoped-reads';
import { RETRIED_EVENT, type CommandRetriedData } from './command-dispatcher';
import { PARKED_COMMANDS, type ParkedCommandDoc } from './parked-commands.projection';
import { processStream } from './process-manager';

/** What an operator does with a parked command: fix the cause, then have it dispatched again. */
export class ParkedCommands {
  constructor(
    private readonly cells: CellRegistry,
    private readonly reads: ScopedReads,
    private readonly clocks: Clocks,
    private readonly ids: IdGenerator,
  ) {}

  /**
   * Records the retry in the command's process stream; the dispatcher then dispatches the command
   * again under its own id (which its target applies once), and parks it again if it still fails.
   */
  async retry(context: RequestContext, commandId: string): Promise<ParkedCommandDoc> {
    const found = await this.reads.retrieve<ParkedCommandDoc>(context, PARKED_COMMANDS, commandId);
    if (!found) throw DomainError.notFound('parked_command.not_found', `No parked command ${commandId}; it may have been retried already`);
    const parked = found.resource;
    const cell = this.cells.cell(context.region);
    const stream = processStream(parked.process, parked.process_id);
    const [latest] = await cell.events.readStream(stream, { direction: 'backwards', limit: 1 });
    const clockId = latest?.metadata.clock_id;
    const data: CommandRetriedData = { command_id: commandId };
    const inFlow = { ...context, correlationId: latest?.metadata.correlation_id ?? null };
    const metadata = {
      ...eventMetadata(inFlow, await this.clocks.now(cell, clockId), clockId),
      schema_version: cell.upcasters.currentVersion(RETRIED_EVENT),
      input_id: `retry:${this.ids.ulid()}`,
    };
    await cell.events.append(stream, [{ id: this.ids.ulid(), type: RETRIED_EVENT, data, metadata }], { expectedRevision: 'any' });
    return parked;
  }
}
