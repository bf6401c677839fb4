import { Injectable } from '@nestjs/common';
import type { ProcessDecider, ProcessInput } from '@tally/kernel';
import type { ProcessManager } from '@tally/runtime';

type CustomerCreated = ProcessInput<'CustomerCreated', { customer_id: string }>;
type SendWelcome = { type: 'SendWelcome'; data: { customer_id: string } };

/** A test-only flow: one welcome mail per new customer, through a mailer that is down until a test brings it up. */
const welcomeDecider: ProcessDecider<{ sent: boolean }, CustomerCreated, { kind: 'command'; command: SendWelcome }> = {
  initialState: () => ({ sent: false }),
  evolve: (state, message) => (message.kind === 'command' ? { sent: true } : state),
  decide: (input, state) => (input.type === 'CustomerCreated' && !state.sent ? [{ kind: 'command', command: { type: 'SendWelcome', data: { customer_id: input.data.customer_id } } }] : []),
};

@Injectable()
export class UnreachableMailerProcess implements ProcessManager<{ sent: boolean }, CustomerCreated, SendWelcome> {
  readonly name = 'welcome_mail';
  readonly streamPrefixes = ['customer-'];
  readonly decider = welcomeDecider;
  /** The customers a welcome mail reached; static, since the worker's instance is not the test's. */
  static readonly delivered: string[] = [];
  static mailerUp = false;

  route(event: { id: string; type: string; data: unknown }) {
    if (event.type !== 'CustomerCreated') return undefined;
    const { customer_id } = event.data as { customer_id: string };
    return { processId: customer_id, input: { id: event.id, type: 'CustomerCreated' as const, data: { customer_id } } };
  }

  async dispatch({ data }: SendWelcome): Promise<void> {
    if (!UnreachableMailerProcess.mailerUp) throw new Error('connect ECONNREFUSED 10.0.0.25:25');
    UnreachableMailerProcess.delivered.push(data.customer_id);
  }
}
