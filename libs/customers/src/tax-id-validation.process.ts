import { Injectable } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import type { ProcessInput, ProcessManager, ProcessOutput, RequestContext } from '@tally/platform';
import type { CustomerTaxIdAdded } from './domain/customer.events';
import { ValidateTaxIdCommand } from './customer.handlers';

type State = { requested: boolean };

/**
 * Validates each tax ID after it is added, outside the request that added it: one process per
 * tax ID, which asks the customer to validate it once.
 */
@Injectable()
export class TaxIdValidationProcess implements ProcessManager<State> {
  readonly name = 'tax_id_validation';
  readonly streamPrefixes = ['customer-'];

  constructor(private readonly commands: CommandBus) {}

  route(event: { type: string; data: unknown; id: string }) {
    if (event.type !== 'CustomerTaxIdAdded') return undefined;
    const { tax_id_id, customer_id } = (event as unknown as CustomerTaxIdAdded).data;
    return { processId: tax_id_id, input: { id: event.id, type: event.type, data: { customer_id, tax_id_id } } };
  }

  initialState(): State {
    return { requested: false };
  }

  evolve(state: State, event: { type: string }): State {
    return event.type === 'ProcessCommandIssued' ? { requested: true } : state;
  }

  decide(input: ProcessInput, state: State): ProcessOutput[] {
    if (input.type !== 'CustomerTaxIdAdded' || state.requested) return [];
    return [{ kind: 'command', type: 'ValidateTaxId', data: input.data }];
  }

  async dispatch(command: { type: string; data: unknown }, context: RequestContext): Promise<void> {
    const { customer_id, tax_id_id } = command.data as { customer_id: string; tax_id_id: string };
    await this.commands.execute(new ValidateTaxIdCommand(context, customer_id, tax_id_id));
  }
}
