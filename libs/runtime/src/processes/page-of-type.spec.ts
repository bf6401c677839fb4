import { DomainError } from '@tally/kernel';
import type { RequestContext } from '@tally/cells';
import { dispatchPageOf } from './page-of-type';

type Step = { type: 'Charge'; data: { id: string } } | { type: 'Notify'; data: { id: string } };
const context = {} as RequestContext;
const call = (type: Step['type'], id: string) => ({ command: { type, data: { id } } as Step, context });

describe('dispatchPageOf', () => {
  it('sends the commands of one type as one page and the others one by one, each outcome in its call’s place', async () => {
    const pages: string[][] = [];
    const alone: string[] = [];
    const settled = await dispatchPageOf(
      [call('Charge', 'a'), call('Notify', 'n'), call('Charge', 'b'), call('Notify', 'm')],
      'Charge',
      async (page) => {
        pages.push(page.map(({ data }) => data.id));
        return page.map(({ data }) => (data.id === 'b' ? { status: 'rejected', reason: DomainError.conflict('charge.declined', 'declined') } : { status: 'fulfilled', value: data.id }));
      },
      async (command) => {
        alone.push(command.data.id);
        if (command.data.id === 'm') throw new Error('outage');
      },
    );

    expect(pages).toEqual([['a', 'b']]);
    expect(alone).toEqual(['n', 'm']);
    expect(settled.map((outcome) => outcome.status)).toEqual(['fulfilled', 'fulfilled', 'rejected', 'rejected']);
    expect(settled[2]).toMatchObject({ reason: { code: 'charge.declined' } });
    expect(settled[0]).toEqual({ status: 'fulfilled', value: undefined });
  });
});
