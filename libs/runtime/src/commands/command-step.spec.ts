import type { RequestContext } from '@tally/cells';
import { commandStep } from './command-step';

const context: RequestContext = { tenantId: 'ten_1', environment: 'sandbox', region: 'eu', actor: 'process:cycle', requestId: null, correlationId: null, causationId: 'e1' };

describe('commandStep', () => {
  it('gives each step of a dispatched command an id of its own, the same on every retry', () => {
    const dispatched = { ...context, commandId: 'cmd_1' };
    const finalize = commandStep(dispatched, 'finalize');
    expect(finalize.commandId).toMatch(/^cmd_/);
    expect(finalize.commandId).not.toBe('cmd_1');
    expect(commandStep(dispatched, 'finalize')).toEqual(finalize);
    expect(commandStep(dispatched, 'void').commandId).not.toBe(finalize.commandId);
  });

  it('leaves the context of a request as it is', () => expect(commandStep(context, 'finalize')).toBe(context));
});
