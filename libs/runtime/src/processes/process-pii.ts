import type { PiiFieldSpec } from '@tally/cells';
import { ProcessEvents } from './process-manager';

/**
 * Process streams copy inputs and commands, which may hold personal data: a message whose
 * process names a subject is sealed with that subject's key, as the aggregate's own events are,
 * so erasing the subject redacts the copies too.
 */
export const processPii: PiiFieldSpec[] = [ProcessEvents.inputReceived, ProcessEvents.commandIssued].map((eventType) => ({
  eventType,
  subject: (data: { subject: string | null }) => data.subject,
  fields: [{ path: 'data', redacted: null }],
}));
