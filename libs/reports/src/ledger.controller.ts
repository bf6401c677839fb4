import { Controller, Get, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiQuery } from '@nestjs/swagger';
import { API_KEY_AUTH, API_KEY_PROBLEMS, ApiAuthenticated, ApiListResponse, ApiProblemResponses, ApiTag, Ctx, CURRENCY_CODE_SCHEMA, LIST_PROBLEMS } from '@tally/http';
import type { RequestContext } from '@tally/cells';
import type { ListPage } from '@tally/runtime';
import { LEDGER_ACCOUNT_NAMES } from './domain/ledger-accounts';
import { ledgerReportQueryOf, LEDGER_PERIODS, MAX_PERIODS } from './ledger-report-query';
import { LEDGER_ENTRY_LIST, LedgerReports, type LedgerEntryResource, type LedgerReport } from './ledger-reports';
import { LedgerEntryResponse, LedgerReportResponse } from './ledger.response';
import { REPORTS_SECTION } from './reports.api-sections';

const DATE_SCHEMA = { type: 'string', format: 'date', example: '2026-05-01' } as const;

/** The double-entry ledger (docs/ledger.md): balances by account and period, and its journal. */
@Controller('v1/reports/ledger')
@ApiAuthenticated(API_KEY_AUTH)
@ApiTag(REPORTS_SECTION)
export class LedgerController {
  constructor(private readonly ledger: LedgerReports) {}

  @Get()
  @ApiOperation({
    summary: 'Get the ledger’s balances by account and period',
    description:
      'Every money event (an invoice finalised, paid, credited, voided or written off; a payment received or returned; a wallet credited or debited) posts one balanced journal entry. ' +
      'This sums them per account, currency and period (UTC days or months, dated when the event occurred, on the customer’s test clock if it has one): each period’s opening balance, debits, credits and closing balance, on the account’s normal side. ' +
      '`accounts_receivable` closes at the sum of `amount_due` of the open and partly paid invoices, and each currency’s `totals` have debits equal to credits. ' +
      `The range is [from, to), at most ${MAX_PERIODS} periods; with monthly periods both are first days of months.`,
  })
  @ApiQuery({ name: 'period', required: false, schema: { type: 'string', enum: [...LEDGER_PERIODS], default: 'month' }, description: 'The periods’ length' })
  @ApiQuery({ name: 'from', required: true, schema: DATE_SCHEMA, description: 'The first day of the range (UTC)' })
  @ApiQuery({ name: 'to', required: true, schema: DATE_SCHEMA, description: 'The day after the range (exclusive)' })
  @ApiQuery({ name: 'currency', required: false, schema: CURRENCY_CODE_SCHEMA, description: 'Only this currency' })
  @ApiQuery({ name: 'account', required: false, schema: { type: 'string', enum: LEDGER_ACCOUNT_NAMES }, description: 'Only this account' })
  @ApiOkResponse({ type: LedgerReportResponse })
  @ApiProblemResponses(API_KEY_PROBLEMS, { 400: ['request.invalid_parameter'], 422: ['report.invalid_range'] })
  balances(@Ctx() context: RequestContext, @Query() params: Record<string, unknown>): Promise<LedgerReport> {
    return this.ledger.balances(context, ledgerReportQueryOf(params));
  }

  @Get('entries')
  @ApiOperation({
    summary: 'List the ledger’s journal entries',
    description: 'Each money event’s entry with its lines (an account, a side, an amount) and its source (the object and what happened to it), oldest first: what the balances sum, to tie them out entry by entry.',
  })
  @ApiListResponse(LedgerEntryResponse, LEDGER_ENTRY_LIST)
  @ApiProblemResponses(API_KEY_PROBLEMS, LIST_PROBLEMS)
  entries(@Ctx() context: RequestContext, @Query() params: Record<string, unknown>): Promise<ListPage<LedgerEntryResource>> {
    return this.ledger.entries(context, params);
  }
}
