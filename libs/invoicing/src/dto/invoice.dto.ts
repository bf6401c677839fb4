import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { ArrayMaxSize, ArrayMinSize, IsArray, IsBoolean, IsIn, IsInt, IsNotEmpty, IsOptional, IsString, Matches, Max, MaxLength, Min, ValidateNested } from 'class-validator';
import { AMOUNT_FRACTION_DIGITS, UNIT_AMOUNT_FRACTION_DIGITS } from '@tally/kernel';
import { amountPattern, ApiSchemaRules, atMostOneOf, CURRENCY_CODE_SCHEMA, IsKeyedObject, IsOmittable, IsTimestamp, METADATA_SCHEMA, POSITIVE_AMOUNT, TIMESTAMP_SCHEMA } from '@tally/http';
import { TAX_BEHAVIORS, TAX_CODES, type TaxBehavior, type TaxCode } from '@tally/tax/published';
import { MAX_INVOICE_LINES } from '../domain/invoice-line-input';
import { CREDIT_NOTE_REASONS, type CreditNoteOutcomeKind, type CreditNoteReason } from '../domain/invoice.events';

const ISSUED_OUTCOMES: readonly CreditNoteOutcomeKind[] = ['none', 'refund', 'credit_balance'];

const AMOUNT = { type: String, pattern: amountPattern(AMOUNT_FRACTION_DIGITS) };
const MAX_DAYS_UNTIL_DUE = 365;

export class InvoiceLineDto {
  @ApiProperty({ minLength: 1, maxLength: 500, example: 'Onboarding workshop' })
  @IsString() @IsNotEmpty() @MaxLength(500) description!: string;

  @ApiProperty({ ...AMOUNT, ...POSITIVE_AMOUNT, example: '2', description: 'A decimal string above 0' })
  @IsString() quantity!: string;

  @ApiProperty({ type: String, pattern: amountPattern(UNIT_AMOUNT_FRACTION_DIGITS), example: '450.00', description: 'Price per unit, a decimal string ≥ 0 with up to 12 decimals; the line’s amount is quantity × unit_amount rounded half-even to the currency' })
  @IsString() unit_amount!: string;

  @ApiPropertyOptional({ ...TIMESTAMP_SCHEMA, description: 'The service period the line covers, with period_end' })
  @IsOmittable() @IsTimestamp() period_start?: string;

  @ApiPropertyOptional({ ...TIMESTAMP_SCHEMA, example: '2026-07-01T00:00:00Z', description: 'After period_start' })
  @IsOmittable() @IsTimestamp() period_end?: string;

  @ApiPropertyOptional({ enum: TAX_CODES, default: 'standard' })
  @IsOmittable() @IsIn(TAX_CODES) tax_code?: TaxCode;

  @ApiPropertyOptional(METADATA_SCHEMA)
  @IsOmittable() @IsKeyedObject() metadata?: Record<string, string>;
}

@ApiSchemaRules(atMostOneOf('due_at', 'days_until_due'))
export class CreateInvoiceDto {
  @ApiProperty({ pattern: '^cus_[0-9A-Za-z]+$', example: 'cus_01JD8X5Z3Q4W2R6T8Y0V1B3N5M' })
  @IsString() @Matches(/^cus_[0-9A-Za-z]+$/, { message: 'customer_id is a customer id (cus_…)' }) customer_id!: string;

  @ApiProperty({ ...CURRENCY_CODE_SCHEMA })
  @IsString() currency!: string;

  @ApiPropertyOptional({ type: Boolean, default: true, example: true, description: 'Charge the customer’s payment method when finalised; false for review flows (the invoice is sent for payment)' })
  @IsOmittable() @IsBoolean() auto_charge?: boolean;

  @ApiPropertyOptional({ enum: TAX_BEHAVIORS, default: 'exclusive', description: 'Whether unit amounts exclude tax or include it' })
  @IsOmittable() @IsIn(TAX_BEHAVIORS) tax_behavior?: TaxBehavior;

  @ApiPropertyOptional({ type: String, nullable: true, maxLength: 500, example: 'Consulting, June', description: 'Shown on the invoice (Stripe’s memo)' })
  @IsOptional() @IsString() @MaxLength(500) description?: string | null;

  @ApiPropertyOptional({ ...TIMESTAMP_SCHEMA, description: 'A fixed due date in the future; or days_until_due' })
  @IsOmittable() @IsTimestamp() due_at?: string;

  @ApiPropertyOptional({ type: 'integer', minimum: 0, maximum: MAX_DAYS_UNTIL_DUE, example: 30, description: 'Due this many days after finalisation. Default: 0 when auto-charged, 30 otherwise' })
  @IsOmittable() @IsInt() @Min(0) @Max(MAX_DAYS_UNTIL_DUE) days_until_due?: number;

  @ApiPropertyOptional(METADATA_SCHEMA)
  @IsOmittable() @IsKeyedObject() metadata?: Record<string, string>;

  @ApiPropertyOptional({ type: () => [InvoiceLineDto], maxItems: MAX_INVOICE_LINES, description: 'The draft’s first lines; more can be added until it is finalised' })
  @IsOmittable() @IsArray() @ArrayMaxSize(MAX_INVOICE_LINES) @ValidateNested({ each: true }) @Type(() => InvoiceLineDto) lines?: InvoiceLineDto[];
}

@ApiSchemaRules(atMostOneOf('due_at', 'days_until_due'))
export class UpdateInvoiceDto {
  @ApiPropertyOptional({ type: String, nullable: true, maxLength: 500, example: 'Consulting, June' })
  @IsOptional() @IsString() @MaxLength(500) description?: string | null;

  @ApiPropertyOptional({ ...TIMESTAMP_SCHEMA, nullable: true, description: 'A fixed due date in the future (replaces days_until_due); null removes it' })
  @IsOptional() @IsTimestamp() due_at?: string | null;

  @ApiPropertyOptional({ type: 'integer', nullable: true, minimum: 0, maximum: MAX_DAYS_UNTIL_DUE, example: 14, description: 'Replaces a fixed due date' })
  @IsOptional() @IsInt() @Min(0) @Max(MAX_DAYS_UNTIL_DUE) days_until_due?: number | null;

  @ApiPropertyOptional({ type: Boolean, example: false })
  @IsOmittable() @IsBoolean() auto_charge?: boolean;

  @ApiPropertyOptional({ ...METADATA_SCHEMA, description: 'Merged key by key; an empty string removes a key. The only field that may change once finalised' })
  @IsOmittable() @IsKeyedObject() metadata?: Record<string, string>;
}

export class CreditNoteLineDto {
  @ApiProperty({ minLength: 1, maxLength: 64, example: 'il_01JD8X5Z3Q4W2R6T8Y0V1B3N5M' })
  @IsString() @IsNotEmpty() @MaxLength(64) line_id!: string;

  @ApiProperty({ ...AMOUNT, ...POSITIVE_AMOUNT, example: '10.00', description: 'At most what is left to credit of the line (its total after discounts, with tax)' })
  @IsString() amount!: string;
}

@ApiSchemaRules({ oneOf: [{ required: ['amount'] }, { required: ['lines'] }] })
export class IssueCreditNoteDto {
  @ApiProperty({ enum: CREDIT_NOTE_REASONS })
  @IsIn(CREDIT_NOTE_REASONS) reason!: CreditNoteReason;

  @ApiPropertyOptional({ type: String, nullable: true, maxLength: 500, example: 'Two seats were billed twice' })
  @IsOptional() @IsString() @MaxLength(500) memo?: string | null;

  @ApiPropertyOptional({ ...AMOUNT, ...POSITIVE_AMOUNT, example: '25.00', description: 'Credit this amount of the invoice; or `lines`' })
  @IsOmittable() @IsString() amount?: string;

  @ApiPropertyOptional({ type: () => [CreditNoteLineDto], minItems: 1, maxItems: MAX_INVOICE_LINES, description: 'Credit these amounts of these lines; or `amount`' })
  @IsOmittable() @IsArray() @ArrayMinSize(1) @ArrayMaxSize(MAX_INVOICE_LINES) @ValidateNested({ each: true }) @Type(() => CreditNoteLineDto) lines?: CreditNoteLineDto[];

  @ApiPropertyOptional({
    enum: ISSUED_OUTCOMES,
    description:
      'What becomes of what it credits: `none` lowers what is left to pay (an invoice not yet paid; the default there), `refund` refunds it to the method of the invoice’s payment (`payment_id`, else the last applied; a refund `rfd_…` with the credit note’s id follows), `credit_balance` credits the customer’s wallet in the invoice’s currency (the default on a paid invoice)',
  })
  @IsOmittable() @IsIn(ISSUED_OUTCOMES) outcome?: CreditNoteOutcomeKind;

  @ApiPropertyOptional({ pattern: '^pay_[0-9A-Za-z]+$', example: 'pay_01JD8X5Z3Q4W2R6T8Y0V1B3N5M', description: 'With outcome `refund`: the payment of the invoice to refund; default the last applied' })
  @IsOmittable() @IsString() @Matches(/^pay_[0-9A-Za-z]+$/, { message: 'payment_id is a payment id (pay_…)' }) payment_id?: string;
}
