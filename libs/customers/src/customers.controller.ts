import { Body, Controller, Get, Headers, HttpCode, Param, Patch, Post, Query, Res } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import type { Response } from 'express';
import { Ctx, etagOf, parseIfMatch, type ListPage, type RequestContext } from '@tally/platform';
import { toAddress } from './dto/address.dto';
import { AddTaxIdDto, CreateCustomerDto, UpdateCustomerDto } from './dto/customer.dto';
import { AddTaxIdCommand, CreateCustomerCommand, UpdateCustomerCommand, type CustomerWritten } from './customer.handlers';
import { GetCustomerQuery, ListCustomersQuery, parseAsOf } from './customer.queries';
import type { CustomerResource, TaxIdResource } from './customer.view';

@Controller('v1/customers')
export class CustomersController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
  ) {}

  @Post()
  @HttpCode(200)
  async create(@Ctx() context: RequestContext, @Body() body: CreateCustomerDto, @Res({ passthrough: true }) response: Response): Promise<CustomerResource> {
    const input = { email: body.email ?? null, name: body.name ?? null, billing_address: toAddress(body.billing_address), metadata: body.metadata ?? {} };
    return withEtag(response, await this.commands.execute(new CreateCustomerCommand(context, input)));
  }

  @Get()
  list(@Ctx() context: RequestContext, @Query() params: Record<string, unknown>): Promise<ListPage<CustomerResource>> {
    return this.queries.execute(new ListCustomersQuery(context, params));
  }

  @Get(':id')
  async retrieve(
    @Ctx() context: RequestContext,
    @Param('id') id: string,
    @Query('as_of') asOf: unknown,
    @Res({ passthrough: true }) response: Response,
  ): Promise<CustomerResource> {
    return withEtag(response, await this.queries.execute(new GetCustomerQuery(context, id, parseAsOf(asOf))));
  }

  @Patch(':id')
  async update(
    @Ctx() context: RequestContext,
    @Param('id') id: string,
    @Body() body: UpdateCustomerDto,
    @Headers('if-match') ifMatch: string | undefined,
    @Res({ passthrough: true }) response: Response,
  ): Promise<CustomerResource> {
    const patch = {
      ...(body.email !== undefined && { email: body.email }),
      ...(body.name !== undefined && { name: body.name }),
      ...(body.billing_address !== undefined && { billing_address: toAddress(body.billing_address) }),
      ...(body.metadata !== undefined && { metadata: body.metadata }),
      ...(body.default_payment_method_id !== undefined && { default_payment_method_id: body.default_payment_method_id }),
    };
    return withEtag(response, await this.commands.execute(new UpdateCustomerCommand(context, id, patch, parseIfMatch(ifMatch))));
  }

  @Post(':id/tax-ids')
  @HttpCode(200)
  async addTaxId(
    @Ctx() context: RequestContext,
    @Param('id') id: string,
    @Body() body: AddTaxIdDto,
    @Res({ passthrough: true }) response: Response,
  ): Promise<TaxIdResource> {
    const { customer } = withRevision(response, await this.commands.execute(new AddTaxIdCommand(context, id, body)));
    return customer.tax_ids[customer.tax_ids.length - 1];
  }
}

function withRevision<T extends { revision: number }>(response: Response, written: T): T {
  response.setHeader('ETag', etagOf(written.revision));
  return written;
}

const withEtag = (response: Response, written: CustomerWritten): CustomerResource => withRevision(response, written).customer;
