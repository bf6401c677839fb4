import { Injectable } from '@nestjs/common';
import type { CommandRejected, ProcessDecider, ProcessInput, TimerFired } from '@tally/kernel';
import type { ProcessManager } from '@tally/runtime';
import type { RequestContext } from '@tally/cells';
import type { CustomerTaxIdAdded } from './domain/customer.events';
import { TaxIdValidation } from './tax-id-validation';

type TaxIdAdded = ProcessInput<'CustomerTaxIdAdded', { customer_id: string; tax_id_id: string }>;
type ValidateTaxId = { type: 'ValidateTaxId'; data: { customer_id: string; tax_id_id: string } };

type State = { requested: boolean };

/** One process per tax ID: ask the customer to validate it, once; a refusal (the tax ID was deleted first) ends it. */
export const taxIdValidationDecider: ProcessDecider<State, TaxIdAdded | TimerFired | CommandRejected, { kind: 'command'; command: ValidateTaxId }> = {
  initialState: () => ({ requested: false }),
  evolve: (state, message) => (message.kind === 'command' ? { requested: true } : state),
  decide(input, state) {
    if (input.type !== 'CustomerTaxIdAdded' || state.requested) return [];
    return [{ kind: 'command', command: { type: 'ValidateTaxId', data: input.data } }];
  },
};

/** Validates each tax ID after it is added, outside the request that added it. */
@Injectable()
export class TaxIdValidationProcess implements ProcessManager<State, TaxIdAdded, ValidateTaxId> {
  readonly name = 'tax_id_validation';
  readonly streamPrefixes = ['customer-'];
  readonly decider = taxIdValidationDecider;

  constructor(private readonly validation: TaxIdValidation) {}

  route(event: { type: string; data: unknown; id: string }) {
    if (event.type !== 'CustomerTaxIdAdded') return undefined;
    const { tax_id_id, customer_id } = (event as unknown as CustomerTaxIdAdded).data;
    return { processId: tax_id_id, input: { id: event.id, type: 'CustomerTaxIdAdded' as const, data: { customer_id, tax_id_id } } };
  }

  async dispatch({ data }: ValidateTaxId, context: RequestContext): Promise<void> {
    await this.validation.validate(context, data.customer_id, data.tax_id_id);
  }
}
