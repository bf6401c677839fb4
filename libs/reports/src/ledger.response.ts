import { ApiProperty } from '@nestjs/swagger';
import { LEDGER_ACCOUNT_NAMES } from './domain/ledger-accounts';

const money = (description?: string) => ({ type: String, example: '49.00', description });
const ACCOUNT = { enum: LEDGER_ACCOUNT_NAMES, example: 'accounts_receivable', description: 'An account of the chart (docs/ledger.md)' };
const ACCOUNT_TYPES = ['asset', 'liability', 'revenue', 'contra_revenue', 'expense', 'equity'];

export class LedgerAccountPeriodResponse {
  @ApiProperty({ type: String, format: 'date', example: '2026-05-01', description: 'The period’s first UTC day' }) period_start!: string;
  @ApiProperty({ type: String, format: 'date', example: '2026-06-01', description: 'The day after its last' }) period_end!: string;
  @ApiProperty({ example: 'EUR' }) currency!: string;
  @ApiProperty(ACCOUNT) account!: string;
  @ApiProperty({ enum: ACCOUNT_TYPES }) account_type!: string;
  @ApiProperty({ enum: ['debit', 'credit'], description: 'The side the balances are shown on; a negative balance lies on the other' }) normal_side!: string;
  @ApiProperty(money('The balance at the period’s start (the previous period’s closing)')) opening_balance!: string;
  @ApiProperty(money('The debit lines’ sum within the period')) debits!: string;
  @ApiProperty(money('The credit lines’ sum within the period')) credits!: string;
  @ApiProperty(money('opening_balance moved by the period’s debits and credits')) closing_balance!: string;
}

export class LedgerCurrencyTotalsResponse {
  @ApiProperty({ example: 'EUR' }) currency!: string;
  @ApiProperty(money('All debits of the range in the currency')) debits!: string;
  @ApiProperty(money('All credits of the range in the currency: equal to `debits`')) credits!: string;
}

export class LedgerReportResponse {
  @ApiProperty({ enum: ['ledger_report'] }) object!: 'ledger_report';
  @ApiProperty({ enum: ['day', 'month'] }) period!: string;
  @ApiProperty({ type: String, format: 'date', example: '2026-05-01' }) from!: string;
  @ApiProperty({ type: String, format: 'date', example: '2026-08-01', description: 'Exclusive' }) to!: string;
  @ApiProperty({ type: String, nullable: true, example: null, description: 'The currency asked for; null: all' }) currency!: string | null;
  @ApiProperty({ type: String, nullable: true, example: null, description: 'The account asked for; null: all' }) account!: string | null;
  @ApiProperty({ type: () => [LedgerAccountPeriodResponse], description: 'By currency, account (in the chart’s order), then period: every account that holds a balance or moved, every period' })
  data!: LedgerAccountPeriodResponse[];
  @ApiProperty({ type: () => [LedgerCurrencyTotalsResponse], description: 'What the range posted, by currency' }) totals!: LedgerCurrencyTotalsResponse[];
}

export class LedgerLineResponse {
  @ApiProperty(ACCOUNT) account!: string;
  @ApiProperty({ enum: ['debit', 'credit'] }) side!: string;
  @ApiProperty(money('Positive, at the currency’s minor unit')) amount!: string;
}

export class LedgerEntrySourceResponse {
  @ApiProperty({ example: 'invoice', description: 'The object whose event posted the entry: invoice, payment, wallet, …' }) object!: string;
  @ApiProperty({ example: 'inv_01JT2XKQ5ZP9A7N3M4B6C8D0EF' }) id!: string;
  @ApiProperty({ example: 'InvoiceFinalized', description: 'What happened to it (the stored event’s type)' }) event_type!: string;
}

export class LedgerEntryResponse {
  @ApiProperty({ example: 'je_01JT2XKQ5ZP9A7N3M4B6C8D0EF' }) id!: string;
  @ApiProperty({ enum: ['ledger_entry'] }) object!: 'ledger_entry';
  @ApiProperty({ type: String, format: 'date-time', example: '2026-05-01T10:00:00.000Z', description: 'When its event occurred (on the customer’s test clock, if it has one)' }) occurred_at!: string;
  @ApiProperty({ example: 'EUR' }) currency!: string;
  @ApiProperty({ example: 'Invoice finalised' }) description!: string;
  @ApiProperty({ type: () => LedgerEntrySourceResponse }) source!: LedgerEntrySourceResponse;
  @ApiProperty({ type: () => [LedgerLineResponse], description: 'Its debits sum to its credits, exactly' }) lines!: LedgerLineResponse[];
}
