import { Body, Controller, Delete, Get, Headers, HttpCode, Inject, Param, Patch, Post, Query, Res } from '@nestjs/common';
import { ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import type { Response } from 'express';
import { API_KEY_AUTH, API_KEY_PROBLEMS, ApiAuthenticated, ApiIdempotent, ApiListResponse, ApiProblemResponses, ApiTag, ApiUpdate, Ctx, IDEMPOTENT_PROBLEMS, LIST_PROBLEMS, parseIfMatch, resourceController, withRevision } from '@tally/http';
import type { IdGenerator } from '@tally/kernel';
import { Commands, TestClocks, type ListPage } from '@tally/runtime';
import { ID_GENERATOR, onClockOf, type RequestContext } from '@tally/cells';
import { toAddress } from './dto/address.dto';
import { AddTaxIdDto, CreateCustomerDto, UpdateCustomerDto } from './dto/customer.dto';
import { customerAggregate } from './customer.aggregate';
import { CustomerResponse, DeletedTaxIdResponse, TaxIdResponse } from './dto/customer.response';
import { customerResource } from './customer.resource';
import type { CustomerResource, TaxIdResource } from './customer.view';
import { TAX_ID_LIST, TaxIdList } from './tax-id-list';
import { CUSTOMERS_SECTION } from './customers.api-sections';

const ETAG = { ETag: { description: 'The customer’s revision, for `If-Match`', schema: { type: 'string', example: 'W/"3"' } } };

@Controller('v1/customers')
@ApiAuthenticated(API_KEY_AUTH)
@ApiTag(CUSTOMERS_SECTION)
export class CustomersController {
  constructor(
    private readonly commands: Commands,
    private readonly taxIds: TaxIdList,
    private readonly testClocks: TestClocks,
    @Inject(ID_GENERATOR) private readonly ids: IdGenerator,
  ) {}

  @Post()
  @ApiOperation({
    summary: 'Create a customer',
    description: 'Every field is optional: a customer can start as an empty record and gain its email, name and billing address later. The billing address decides the tax of the customer’s invoices. Emails need not be unique.',
  })
  @HttpCode(200)
  @ApiOkResponse({ type: CustomerResponse, headers: ETAG })
  @ApiIdempotent()
  @ApiProblemResponses(API_KEY_PROBLEMS, IDEMPOTENT_PROBLEMS, { 400: ['request.invalid_metadata', 'test_clock.livemode'], 404: ['test_clock.not_found'] })
  async create(@Ctx() context: RequestContext, @Body() body: CreateCustomerDto, @Res({ passthrough: true }) response: Response): Promise<CustomerResource> {
    if (body.test_clock) await this.testClocks.assertUsable(context, body.test_clock);
    const customer_id = this.ids.next('cus');
    const data = { customer_id, email: body.email ?? null, name: body.name ?? null, billing_address: toAddress(body.billing_address), metadata: body.metadata ?? {} };
    const created = await this.commands.send(customerAggregate, customer_id, { type: 'CreateCustomer', data }, onClockOf(context, body.test_clock), { newStream: true });
    return withRevision(response, created).resource!;
  }

  @Patch(':id')
  @ApiOperation({
    summary: 'Update a customer',
    description: 'Fields left out keep their value and null clears one. A billing address is merged field by field; metadata is merged key by key, and an empty string removes a key. With `If-Match` the update applies only if nobody changed the customer since.',
  })
  @ApiUpdate('customer', { type: CustomerResponse, headers: ETAG }, {
    400: ['request.invalid_metadata'],
    404: ['customer.not_found'],
    409: ['request.concurrent_update'],
    422: ['customer.payment_method_not_attached'],
  })
  async update(
    @Ctx() context: RequestContext,
    @Param('id') id: string,
    @Body() body: UpdateCustomerDto,
    @Headers('if-match') ifMatch: string | undefined,
    @Res({ passthrough: true }) response: Response,
  ): Promise<CustomerResource> {
    const data = {
      customer_id: id,
      ...(body.email !== undefined && { email: body.email }),
      ...(body.name !== undefined && { name: body.name }),
      ...(body.billing_address !== undefined && { billing_address: body.billing_address }),
      ...(body.metadata !== undefined && { metadata: body.metadata }),
      ...(body.default_payment_method_id !== undefined && { default_payment_method_id: body.default_payment_method_id }),
    };
    return withRevision(response, await this.commands.send(customerAggregate, id, { type: 'UpdateCustomer', data }, context, { expectedRevision: parseIfMatch(ifMatch) })).resource!;
  }

  @Post(':id/tax-ids')
  @ApiOperation({
    summary: 'Add a tax ID to a customer',
    description: 'The tax ID is `pending` until it is verified, which happens in the background; an invalid one sets the customer’s `tax_id_invalid`, and its invoices then get no reverse charge.',
  })
  @HttpCode(200)
  @ApiOkResponse({ type: TaxIdResponse, headers: ETAG })
  @ApiIdempotent()
  @ApiProblemResponses(API_KEY_PROBLEMS, IDEMPOTENT_PROBLEMS, { 400: ['tax_id.unsupported_type'], 404: ['customer.not_found'], 409: ['tax_id.already_exists', 'request.concurrent_update'] })
  async addTaxId(
    @Ctx() context: RequestContext,
    @Param('id') id: string,
    @Body() body: AddTaxIdDto,
    @Res({ passthrough: true }) response: Response,
  ): Promise<TaxIdResource> {
    const data = { customer_id: id, tax_id_id: this.ids.next('txi'), type: body.type, value: body.value };
    const customer = withRevision(response, await this.commands.send(customerAggregate, id, { type: 'AddTaxId', data }, context)).resource!;
    return customer.tax_ids[customer.tax_ids.length - 1];
  }

  @Get(':id/tax-ids')
  @ApiOperation({ summary: 'List a customer’s tax IDs', description: 'Newest first by default, with the verification status of each.' })
  @ApiListResponse(TaxIdResponse, TAX_ID_LIST)
  @ApiProblemResponses(API_KEY_PROBLEMS, LIST_PROBLEMS, { 404: ['customer.not_found'] })
  listTaxIds(@Ctx() context: RequestContext, @Param('id') id: string, @Query() params: Record<string, unknown>): Promise<ListPage<TaxIdResource>> {
    return this.taxIds.page(context, id, params);
  }

  @Delete(':id/tax-ids/:tax_id_id')
  @ApiOperation({ summary: 'Delete a tax ID of a customer', description: 'Deleting the last invalid tax ID clears the customer’s `tax_id_invalid`.' })
  @ApiOkResponse({ type: DeletedTaxIdResponse, headers: ETAG, description: 'Deleting the last invalid tax ID clears the customer’s `tax_id_invalid`' })
  @ApiProblemResponses(API_KEY_PROBLEMS, { 404: ['customer.not_found', 'tax_id.not_found'], 409: ['request.concurrent_update'] })
  async deleteTaxId(
    @Ctx() context: RequestContext,
    @Param('id') id: string,
    @Param('tax_id_id') taxIdId: string,
    @Res({ passthrough: true }) response: Response,
  ): Promise<DeletedTaxIdResponse> {
    withRevision(response, await this.commands.send(customerAggregate, id, { type: 'DeleteTaxId', data: { customer_id: id, tax_id_id: taxIdId } }, context));
    return { id: taxIdId, object: 'tax_id', deleted: true };
  }
}

/** The list and the retrieve (with `as_of`), from the resource's definition. */
export const CustomerReadsController = resourceController(customerResource, {
  path: 'v1/customers', tag: CUSTOMERS_SECTION, noun: 'customer', type: CustomerResponse, etag: ETAG, operations: 'CustomersController',
  list: { summary: 'List customers', description: 'Newest first by default; filter by email (exact, any of several, or prefix) and by creation and update time.' },
  retrieve: { summary: 'Retrieve a customer', description: 'The customer as it is now, or with `as_of` as it was at that moment, rebuilt from its events (404 before it existed).', problems: { 404: ['customer.not_found'] } },
});
