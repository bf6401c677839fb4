import type { RequestContext } from '@tally/cells';
import type { IssuedCommand } from './process-manager';

/** One command of a page sent to a reaction (see Reaction.dispatchEach). */
export interface ReactionCall<C extends IssuedCommand> {
  command: C;
  context: RequestContext;
}

/**
 * A reaction's page form when one command type is worth a page: the page's commands of `type` go
 * to `each` together (each item its command's data), the others to `dispatch` one by one, at the
 * same time; each outcome in its call's place.
 */
export async function dispatchPageOf<C extends IssuedCommand, T extends C['type']>(
  calls: readonly ReactionCall<C>[],
  type: T,
  each: (page: { context: RequestContext; data: Extract<C, { type: T }>['data'] }[]) => Promise<PromiseSettledResult<unknown>[]>,
  dispatch: (command: C, context: RequestContext) => Promise<void>,
): Promise<PromiseSettledResult<void>[]> {
  const paged = calls.flatMap(({ command, context }, i) => (command.type === type ? [{ i, context, data: command.data as Extract<C, { type: T }>['data'] }] : []));
  const [pageOutcomes, outcomes] = await Promise.all([
    each(paged),
    Promise.allSettled(calls.map(({ command, context }) => (command.type === type ? undefined : dispatch(command, context)))),
  ]);
  paged.forEach(({ i }, k) => {
    const outcome = pageOutcomes[k];
    outcomes[i] = outcome.status === 'rejected' ? outcome : { status: 'fulfilled', value: undefined };
  });
  return outcomes;
}
