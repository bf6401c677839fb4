import { Body, Controller, Get, Headers, HttpCode, Param, Patch, Post, Query, Res, type Type } from '@nestjs/common';
import { ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import type { Response } from 'express';
import type { RequestContext } from '@tally/cells';
import {
  API_KEY_AUTH,
  API_KEY_PROBLEMS,
  ApiAuthenticated,
  ApiIdempotent,
  ApiListResponse,
  ApiProblemResponses,
  ApiTag,
  ApiUpdate,
  Ctx,
  IDEMPOTENT_PROBLEMS,
  LIST_PROBLEMS,
  parseIfMatch,
  resourceController,
  SinceApiVersion,
  withRevision,
} from '@tally/http';
import type { ListPage } from '@tally/runtime';
import { CreateCreditGrantDto, CreateWalletDto, CreditWalletDto, DebitWalletDto, UpdateWalletDto } from './dto/wallet.dto';
import { PrepaidWalletResponse, WalletTransactionResponse } from './dto/wallet.response';
import { WalletOperations } from './wallet-operations';
import { walletResource } from './wallet.resource';
import { WalletTransactionList } from './wallet-transaction-list';
import { WALLET_TRANSACTION_LIST } from './wallet-transactions.projection';
import type { WalletResource, WalletTransactionResource } from './wallet.view';
import { WALLETS_SECTION } from './wallets.api-sections';

const ETAG = { ETag: { description: 'The wallet’s revision, for `If-Match`', schema: { type: 'string', example: 'W/"3"' } } };

/** Wallets exist from API version 2025-10-01: older versions answer 404, as for a route that is not there, and their documents leave them out. */
const WALLETS_SINCE = SinceApiVersion('2025-10-01');
const WALLETS_SINCE_READS = (controller: Type): Type => (WALLETS_SINCE(controller) as Type | undefined) ?? controller;
const POSTING_PROBLEMS = { 400: ['wallet.invalid_amount'], 404: ['wallet.not_found'], 409: ['wallet.external_id_conflict', 'request.concurrent_update'] };

@WALLETS_SINCE
@Controller('v1/customers')
@ApiAuthenticated(API_KEY_AUTH)
@ApiTag(WALLETS_SECTION)
export class CustomerWalletsController {
  constructor(private readonly operations: WalletOperations) {}

  @Post(':id/wallets')
  @ApiOperation({
    summary: 'Create a wallet for a customer',
    description: 'One wallet per customer per currency; it starts at a zero balance and lives on its customer’s test clock, if any. `auto_top_up` charges the customer’s payment method when a debit leaves the balance at or below `trigger_at`; `drift_floor` fires `wallet.below_drift_floor` when the balance goes below it.',
  })
  @HttpCode(200)
  @ApiOkResponse({ type: PrepaidWalletResponse, headers: ETAG })
  @ApiIdempotent()
  @ApiProblemResponses(API_KEY_PROBLEMS, IDEMPOTENT_PROBLEMS, {
    400: ['wallet.invalid_amount', 'money.unknown_currency', 'request.invalid_metadata'],
    404: ['customer.not_found'],
    409: ['wallet.already_exists', 'request.concurrent_update'],
    422: ['wallet.payment_method_not_attached'],
  })
  async create(@Ctx() context: RequestContext, @Param('id') customerId: string, @Body() body: CreateWalletDto, @Res({ passthrough: true }) response: Response): Promise<WalletResource> {
    const data = { customer_id: customerId, currency: body.currency, auto_top_up: body.auto_top_up ?? null, drift_floor: body.drift_floor ?? null, metadata: body.metadata ?? {} };
    return withRevision(response, await this.operations.create(context, data)).resource!;
  }

  @Post(':id/credit-grants')
  @ApiOperation({
    summary: 'Grant a customer credit',
    description: 'A one-off complimentary credit: posted to the customer’s wallet in `currency` (created when missing) with reason `promotional`. Answers the transaction; a replayed `external_id` answers the one it posted.',
  })
  @HttpCode(200)
  @ApiOkResponse({ type: WalletTransactionResponse })
  @ApiIdempotent()
  @ApiProblemResponses(API_KEY_PROBLEMS, IDEMPOTENT_PROBLEMS, POSTING_PROBLEMS, { 400: ['money.unknown_currency'], 404: ['customer.not_found'] })
  grant(@Ctx() context: RequestContext, @Param('id') customerId: string, @Body() body: CreateCreditGrantDto): Promise<WalletTransactionResource> {
    return this.operations.grant(context, customerId, { currency: body.currency, amount: body.amount, external_id: body.external_id ?? null, description: body.description ?? null });
  }
}

@WALLETS_SINCE
@Controller('v1/wallets')
@ApiAuthenticated(API_KEY_AUTH)
@ApiTag(WALLETS_SECTION)
export class WalletsController {
  constructor(
    private readonly operations: WalletOperations,
    private readonly transactions: WalletTransactionList,
  ) {}

  @Patch(':id')
  @ApiOperation({
    summary: 'Update a wallet',
    description: 'Fields left out keep their value; null removes the automatic top-up or the drift floor; metadata is merged key by key, and an empty string removes a key. With `If-Match` the update applies only if nobody changed the wallet since.',
  })
  @ApiUpdate('wallet', { type: PrepaidWalletResponse, headers: ETAG }, {
    400: ['wallet.invalid_amount', 'request.invalid_metadata'],
    404: ['wallet.not_found'],
    409: ['request.concurrent_update'],
    422: ['wallet.payment_method_not_attached'],
  })
  async update(
    @Ctx() context: RequestContext,
    @Param('id') id: string,
    @Body() body: UpdateWalletDto,
    @Headers('if-match') ifMatch: string | undefined,
    @Res({ passthrough: true }) response: Response,
  ): Promise<WalletResource> {
    const data = {
      wallet_id: id,
      ...(body.auto_top_up !== undefined && { auto_top_up: body.auto_top_up }),
      ...(body.drift_floor !== undefined && { drift_floor: body.drift_floor }),
      ...(body.metadata !== undefined && { metadata: body.metadata }),
    };
    return withRevision(response, await this.operations.update(context, data, parseIfMatch(ifMatch))).resource!;
  }

  @Post(':id/credits')
  @ApiOperation({ summary: 'Credit a wallet', description: 'Adds `amount` to the balance with a `reason` (required, kept on the transaction). Answers the transaction, with the balance after it; a replayed `external_id` answers the one it posted.' })
  @HttpCode(200)
  @ApiOkResponse({ type: WalletTransactionResponse })
  @ApiIdempotent()
  @ApiProblemResponses(API_KEY_PROBLEMS, IDEMPOTENT_PROBLEMS, POSTING_PROBLEMS)
  credit(@Ctx() context: RequestContext, @Param('id') id: string, @Body() body: CreditWalletDto): Promise<WalletTransactionResource> {
    return this.operations.post(context, id, { type: 'credit', reason: body.reason, amount: body.amount, external_id: body.external_id ?? null, description: body.description ?? null });
  }

  @Post(':id/debits')
  @ApiOperation({
    summary: 'Debit a wallet',
    description: 'Takes `amount` from the balance, as Stripe’s customer balance transactions do, with a `reason` (`manual` or `correction`). A wallet never goes below zero: a larger debit answers 409 `wallet.insufficient_balance` and takes nothing. A replayed `external_id` answers the transaction it posted.',
  })
  @HttpCode(200)
  @ApiOkResponse({ type: WalletTransactionResponse })
  @ApiIdempotent()
  @ApiProblemResponses(API_KEY_PROBLEMS, IDEMPOTENT_PROBLEMS, POSTING_PROBLEMS, { 409: ['wallet.insufficient_balance'] })
  debit(@Ctx() context: RequestContext, @Param('id') id: string, @Body() body: DebitWalletDto): Promise<WalletTransactionResource> {
    return this.operations.post(context, id, { type: 'debit', reason: body.reason, amount: body.amount, external_id: body.external_id ?? null, description: body.description ?? null });
  }

  @Get(':id/transactions')
  @ApiOperation({ summary: 'List a wallet’s transactions', description: 'The wallet’s ledger of credits and debits, newest first (by `sequence`), each with the balance after it, its reason and its source.' })
  @ApiListResponse(WalletTransactionResponse, WALLET_TRANSACTION_LIST)
  @ApiProblemResponses(API_KEY_PROBLEMS, LIST_PROBLEMS, { 404: ['wallet.not_found'] })
  listTransactions(@Ctx() context: RequestContext, @Param('id') id: string, @Query() params: Record<string, unknown>): Promise<ListPage<WalletTransactionResource>> {
    return this.transactions.page(context, id, params);
  }
}

/** The list and the retrieve (with `as_of`), from the resource's definition. */
export const WalletReadsController = WALLETS_SINCE_READS(resourceController(walletResource, {
  path: 'v1/wallets', tag: WALLETS_SECTION, noun: 'wallet', type: PrepaidWalletResponse, etag: ETAG, operations: 'WalletsController',
  list: { summary: 'List wallets', description: 'Newest first by default; filter by customer and currency, and by creation and update time.' },
  retrieve: { summary: 'Retrieve a wallet', description: 'The wallet as it is now, or with `as_of` as it was at that moment, rebuilt from its events (404 before it existed).', problems: { 404: ['wallet.not_found'] } },
}));
