import { Injectable } from '@nestjs/common';
import type { ProcessDecider, ProcessInput, TimerFired } from '@tally/kernel';
import { Commands, type ProcessManager } from '@tally/runtime';
import type { RequestContext } from '@tally/cells';
import { customerAggregate } from '@tally/customers';

const DAY_MS = 86_400_000;
export const CHAIN_LINKS = 5;

type CustomerCreated = ProcessInput<'CustomerCreated', { customer_id: string; created_at: string }>;
export type MarkLink = { type: 'MarkLink'; data: { customer_id: string; link: number } };
type State = { customerId?: string; nextDue?: string; links: number };

/**
 * A test-only flow: for each new customer, a chain of `links` daily timers, each set by the firing
 * of the one before (the first a day after the customer was created); each firing marks the
 * customer's metadata with its link number, through a command dispatched on the customer's clock.
 */
export function timerChain(links: number): Pick<ProcessManager<State, CustomerCreated, MarkLink>, 'name' | 'streamPrefixes' | 'route' | 'decider'> {
  const decider: ProcessDecider<State, CustomerCreated | TimerFired, { kind: 'schedule'; timerId: string; dueAt: string } | { kind: 'command'; command: MarkLink }> = {
    initialState: () => ({ links: 0 }),
    evolve(state, message) {
      if (message.kind === 'input' && message.input.type === 'CustomerCreated') return { ...state, customerId: message.input.data.customer_id };
      if (message.kind === 'schedule') return { ...state, nextDue: message.dueAt };
      if (message.kind === 'command') return { ...state, links: state.links + 1 };
      return state;
    },
    decide(input, state) {
      if (input.type === 'CustomerCreated') return [{ kind: 'schedule', timerId: `${input.data.customer_id}:1`, dueAt: after(input.data.created_at, DAY_MS) }];
      if (input.type !== 'TimerFired' || !state.customerId || !state.nextDue) return [];
      const link = state.links + 1;
      const mark = { kind: 'command' as const, command: { type: 'MarkLink' as const, data: { customer_id: state.customerId, link } } };
      return link >= links ? [mark] : [mark, { kind: 'schedule', timerId: `${state.customerId}:${link + 1}`, dueAt: after(state.nextDue, DAY_MS) }];
    },
  };
  return {
    name: 'timer_chain',
    streamPrefixes: ['customer-'],
    decider,
    route(event) {
      if (event.type !== 'CustomerCreated') return undefined;
      const { customer_id } = event.data as { customer_id: string };
      return { processId: customer_id, input: { id: event.id, type: 'CustomerCreated' as const, data: { customer_id, created_at: event.metadata.occurred_at } } };
    },
  };
}

/** The chain of CHAIN_LINKS links, its marks sent with `commands.send` as a context's own process would. */
@Injectable()
export class TimerChainProcess implements ProcessManager<State, CustomerCreated, MarkLink> {
  private readonly chain = timerChain(CHAIN_LINKS);
  readonly name = this.chain.name;
  readonly streamPrefixes = this.chain.streamPrefixes;
  readonly decider = this.chain.decider;
  readonly route = this.chain.route;

  constructor(private readonly commands: Commands) {}

  async dispatch({ data }: MarkLink, context: RequestContext): Promise<void> {
    await this.commands.send(customerAggregate, data.customer_id, { type: 'UpdateCustomer', data: { customer_id: data.customer_id, metadata: { link: String(data.link) } } }, context);
  }
}

const after = (at: string, ms: number): string => new Date(Date.parse(at) + ms).toISOString();
