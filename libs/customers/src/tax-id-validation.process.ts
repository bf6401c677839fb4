import { Injectable } from '@nestjs/common';
import type { OneCommandState } from '@tally/kernel';
import type { ProcessManager } from '@tally/runtime';
import type { RequestContext } from '@tally/cells';
import type { CustomerTaxIdAdded } from './domain/customer.events';
import { taxIdValidationDecider, type TaxIdAdded, type ValidateTaxId } from './domain/tax-id-validation.decider';
import { TaxIdValidation } from './tax-id-validation';

/** Validates each tax ID after it is added, outside the request that added it. */
@Injectable()
export class TaxIdValidationProcess implements ProcessManager<OneCommandState, TaxIdAdded, ValidateTaxId> {
  readonly name = 'tax_id_validation';
  readonly streamPrefixes = ['customer-'];
  readonly decider = taxIdValidationDecider;

  constructor(private readonly validation: TaxIdValidation) {}

  route(event: { type: string; data: unknown; id: string }) {
    if (event.type !== 'CustomerTaxIdAdded') return undefined;
    const { tax_id_id, customer_id } = event.data as CustomerTaxIdAdded['data'];
    return { processId: tax_id_id, input: { id: event.id, type: 'CustomerTaxIdAdded' as const, data: { customer_id, tax_id_id } } };
  }

  async dispatch({ data }: ValidateTaxId, context: RequestContext): Promise<void> {
    await this.validation.validate(context, data.customer_id, data.tax_id_id);
  }
}
