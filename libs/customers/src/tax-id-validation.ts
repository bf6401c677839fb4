import { Inject, Injectable } from '@nestjs/common';
import { CommandRuntime, Commands } from '@tally/runtime';
import type { RequestContext } from '@tally/cells';
import { customerAggregate } from './customer.aggregate';
import type { TaxIdType } from './domain/tax-ids/tax-id';
import { TAX_ID_VALIDATOR, type TaxIdValidator } from './tax-id-validator.port';

/** The tax-ID validation process's step: validates a customer's pending tax ID and has the customer record the result. */
@Injectable()
export class TaxIdValidation {
  constructor(
    private readonly runtime: CommandRuntime,
    private readonly commands: Commands,
    @Inject(TAX_ID_VALIDATOR) private readonly validator: TaxIdValidator,
  ) {}

  async validate(context: RequestContext, customerId: string, taxIdId: string): Promise<void> {
    const { state } = await this.runtime.load(this.runtime.cellOf(context), customerAggregate, customerId, context);
    const taxId = state.status === 'active' ? state.taxIds.find((t) => t.id === taxIdId) : undefined;
    if (!taxId || taxId.status !== 'pending') return;
    const result = await this.validator.validate(taxId.type as TaxIdType, taxId.value);
    await this.commands.send(customerAggregate, customerId, { type: 'RecordTaxIdValidation', data: { customer_id: customerId, tax_id_id: taxIdId, result } }, context);
  }
}
