import type { Projection } from '../projections/projection';
import { PARKED_EVENT, RETRIED_EVENT, type CommandParkedData, type CommandRetriedData } from './command-dispatcher';
import { splitProcessStream } from './process-manager';

export const PARKED_COMMANDS = 'parked_commands';

export interface ParkedCommandDoc {
  [field: string]: unknown;
  id: string;
  object: 'parked_command';
  process: string;
  process_id: string;
  type: string;
  attempts: number;
  last_error: string;
  created_at: string;
  tenant_id: string;
  environment: string;
}

/** The commands the dispatcher gave up on and nobody retried yet, for operators to see (and `/metrics` to count). */
export const parkedCommandsProjection: Projection = {
  name: 'parked_commands',
  streamPrefixes: ['pm.'],
  collections: [{ name: PARKED_COMMANDS, indexes: [{ fields: ['tenant_id', 'environment', 'created_at'] }] }],
  async handle(event, writer) {
    if (event.type === RETRIED_EVENT) return writer.delete(PARKED_COMMANDS, (event.data as CommandRetriedData).command_id);
    if (event.type !== PARKED_EVENT) return;
    const parked = event.data as CommandParkedData;
    const { name, processId } = splitProcessStream(event.stream);
    writer.upsert(PARKED_COMMANDS, {
      id: parked.command_id,
      object: 'parked_command',
      process: name,
      process_id: processId,
      type: parked.type,
      attempts: parked.attempts,
      last_error: parked.error,
      created_at: event.metadata.occurred_at,
      tenant_id: event.metadata.tenant_id,
      environment: event.metadata.environment,
    } satisfies ParkedCommandDoc);
  },
};
