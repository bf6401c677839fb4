import { Inject } from '@nestjs/common';
import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import type { IdGenerator } from '@tally/kernel';
import { CommandRuntime, TestClocks, type CommandOutcome } from '@tally/runtime';
import { ID_GENERATOR, onClockOf, type RequestContext } from '@tally/cells';
import { customerAggregate } from './customer.aggregate';
import type { CustomerResource } from './customer.view';
import type { CreateCustomer, DeleteTaxId, UpdateCustomer } from './domain/customer.decider';
import type { TaxIdType } from './domain/tax-ids/tax-id';
import { TAX_ID_VALIDATOR, type TaxIdValidator } from './tax-id-validator.port';

/** A customer as a command left it, with the revision for its ETag. */
export interface CustomerWritten {
  customer: CustomerResource;
  revision: number;
}

export class CreateCustomerCommand extends Command<CustomerWritten> {
  constructor(
    readonly context: RequestContext,
    readonly input: Omit<CreateCustomer['data'], 'customer_id'>,
    /** The sandbox test clock the customer is to live on. */
    readonly testClock?: string,
  ) {
    super();
  }
}

export class UpdateCustomerCommand extends Command<CustomerWritten> {
  constructor(
    readonly context: RequestContext,
    readonly customerId: string,
    readonly patch: Omit<UpdateCustomer['data'], 'customer_id'>,
    readonly expectedRevision: number | undefined,
  ) {
    super();
  }
}

export class AddTaxIdCommand extends Command<CustomerWritten> {
  constructor(
    readonly context: RequestContext,
    readonly customerId: string,
    readonly taxId: { type: string; value: string },
  ) {
    super();
  }
}

export class DeleteTaxIdCommand extends Command<CustomerWritten> {
  constructor(
    readonly context: RequestContext,
    readonly customerId: string,
    readonly taxIdId: string,
  ) {
    super();
  }
}

/** Sent when the customer's test clock is deleted. */
export class DeleteCustomerCommand extends Command<void> {
  constructor(
    readonly context: RequestContext,
    readonly customerId: string,
  ) {
    super();
  }
}

/** Sent by the tax-ID validation process: validate one tax ID and record the result. */
export class ValidateTaxIdCommand extends Command<void> {
  constructor(
    readonly context: RequestContext,
    readonly customerId: string,
    readonly taxIdId: string,
  ) {
    super();
  }
}

const written = ({ resource, revision }: CommandOutcome<unknown, CustomerResource>): CustomerWritten => ({ customer: resource!, revision });

@CommandHandler(CreateCustomerCommand)
export class CreateCustomerHandler implements ICommandHandler<CreateCustomerCommand, CustomerWritten> {
  constructor(
    private readonly runtime: CommandRuntime,
    private readonly testClocks: TestClocks,
    @Inject(ID_GENERATOR) private readonly ids: IdGenerator,
  ) {}

  async execute({ context, input, testClock }: CreateCustomerCommand): Promise<CustomerWritten> {
    if (testClock) await this.testClocks.assertUsable(context, testClock);
    const id = this.ids.next('cus');
    const onClock = onClockOf(context, testClock);
    return written(await this.runtime.execute(customerAggregate, id, { type: 'CreateCustomer', data: { customer_id: id, ...input } }, onClock, { newStream: true }));
  }
}

@CommandHandler(UpdateCustomerCommand)
export class UpdateCustomerHandler implements ICommandHandler<UpdateCustomerCommand, CustomerWritten> {
  constructor(private readonly runtime: CommandRuntime) {}

  async execute({ context, customerId, patch, expectedRevision }: UpdateCustomerCommand): Promise<CustomerWritten> {
    const command: UpdateCustomer = { type: 'UpdateCustomer', data: { customer_id: customerId, ...patch } };
    return written(await this.runtime.execute(customerAggregate, customerId, command, context, { expectedRevision }));
  }
}

@CommandHandler(AddTaxIdCommand)
export class AddTaxIdHandler implements ICommandHandler<AddTaxIdCommand, CustomerWritten> {
  constructor(
    private readonly runtime: CommandRuntime,
    @Inject(ID_GENERATOR) private readonly ids: IdGenerator,
  ) {}

  async execute({ context, customerId, taxId }: AddTaxIdCommand): Promise<CustomerWritten> {
    const data = { customer_id: customerId, tax_id_id: this.ids.next('txi'), type: taxId.type, value: taxId.value };
    return written(await this.runtime.execute(customerAggregate, customerId, { type: 'AddTaxId', data }, context));
  }
}

@CommandHandler(DeleteTaxIdCommand)
export class DeleteTaxIdHandler implements ICommandHandler<DeleteTaxIdCommand, CustomerWritten> {
  constructor(private readonly runtime: CommandRuntime) {}

  async execute({ context, customerId, taxIdId }: DeleteTaxIdCommand): Promise<CustomerWritten> {
    const command: DeleteTaxId = { type: 'DeleteTaxId', data: { customer_id: customerId, tax_id_id: taxIdId } };
    return written(await this.runtime.execute(customerAggregate, customerId, command, context));
  }
}

@CommandHandler(DeleteCustomerCommand)
export class DeleteCustomerHandler implements ICommandHandler<DeleteCustomerCommand, void> {
  constructor(private readonly runtime: CommandRuntime) {}

  async execute({ context, customerId }: DeleteCustomerCommand): Promise<void> {
    await this.runtime.execute(customerAggregate, customerId, { type: 'DeleteCustomer', data: { customer_id: customerId } }, context);
  }
}

@CommandHandler(ValidateTaxIdCommand)
export class ValidateTaxIdHandler implements ICommandHandler<ValidateTaxIdCommand, void> {
  constructor(
    private readonly runtime: CommandRuntime,
    @Inject(TAX_ID_VALIDATOR) private readonly validator: TaxIdValidator,
  ) {}

  async execute({ context, customerId, taxIdId }: ValidateTaxIdCommand): Promise<void> {
    const cell = this.runtime.cellOf(context);
    const { state } = await this.runtime.load(cell, customerAggregate, customerId, context);
    const taxId = state.status === 'active' ? state.taxIds.find((t) => t.id === taxIdId) : undefined;
    if (!taxId || taxId.status !== 'pending') return;
    const result = await this.validator.validate(taxId.type as TaxIdType, taxId.value);
    await this.runtime.execute(customerAggregate, customerId, { type: 'RecordTaxIdValidation', data: { customer_id: customerId, tax_id_id: taxIdId, result } }, context);
  }
}

export const customerCommandHandlers = [CreateCustomerHandler, UpdateCustomerHandler, AddTaxIdHandler, DeleteTaxIdHandler, DeleteCustomerHandler, ValidateTaxIdHandler];
