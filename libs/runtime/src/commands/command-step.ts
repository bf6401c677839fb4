import { derivedId } from '@tally/kernel';
import type { RequestContext } from '@tally/cells';

/**
 * The context of a further command that one dispatched command sends to a stream it already
 * wrote: a command id of its own, derived from the first and the step's name, since a stream
 * applies a command id once. Outside a dispatched command (no command id) the context is as it is.
 */
export const commandStep = (context: RequestContext, step: string): RequestContext =>
  context.commandId ? { ...context, commandId: derivedId('cmd', [context.commandId, step]) } : context;
