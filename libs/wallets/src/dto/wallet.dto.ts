import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsBoolean, IsIn, IsNotEmpty, IsOptional, IsString, Matches, MaxLength, ValidateNested } from 'class-validator';
import { AMOUNT_FRACTION_DIGITS } from '@tally/kernel';
import { amountPattern, CURRENCY_CODE_SCHEMA, IsKeyedObject, IsOmittable, METADATA_SCHEMA, POSITIVE_AMOUNT } from '@tally/http';
import { WALLET_CREDIT_REASONS, type WalletCreditReason } from '../domain/wallet.events';

const AMOUNT = { type: String, pattern: amountPattern(AMOUNT_FRACTION_DIGITS) };
const EXACT = 'exact at the currency’s minor unit (else 400 `wallet.invalid_amount`)';

/** The reasons a manual debit may give; `invoice_settlement` is the settlement's own. */
export const MANUAL_DEBIT_REASONS = ['manual', 'correction'] as const;

export class AutoTopUpDto {
  @ApiProperty({ type: Boolean, example: true, description: 'False keeps the rule but charges nothing' })
  @IsBoolean() enabled!: boolean;

  @ApiProperty({ ...AMOUNT, example: '10.00', description: `A debit that leaves the balance at or below this tops it up; zero or more, ${EXACT}` })
  @IsString() trigger_at!: string;

  @ApiProperty({ ...AMOUNT, ...POSITIVE_AMOUNT, example: '50.00', description: `Charged as many times as it takes to get above trigger_at, in one charge; ${EXACT}` })
  @IsString() amount!: string;

  @ApiProperty({ pattern: '^pm_[0-9A-Za-z]+$', example: 'pm_01JD8X5Z3Q4W2R6T8Y0V1B3N5M', description: 'A payment method attached to the wallet’s customer (else 422 `wallet.payment_method_not_attached`)' })
  @IsString() @Matches(/^pm_[0-9A-Za-z]+$/, { message: 'payment_method_id is a payment method id (pm_…)' }) payment_method_id!: string;
}

class WalletSettingsDto {
  @ApiPropertyOptional({ type: () => AutoTopUpDto, nullable: true, description: 'Automatic top-up; null removes it' })
  @IsOptional() @ValidateNested() @Type(() => AutoTopUpDto) auto_top_up?: AutoTopUpDto | null;

  @ApiPropertyOptional({ ...AMOUNT, nullable: true, example: '5.00', description: `\`wallet.below_drift_floor\` fires once when the balance goes below it; zero or more, ${EXACT}; null removes it` })
  @IsOptional() @IsString() drift_floor?: string | null;

  @ApiPropertyOptional(METADATA_SCHEMA)
  @IsOmittable() @IsKeyedObject() metadata?: Record<string, string>;
}

export class CreateWalletDto extends WalletSettingsDto {
  @ApiProperty({ ...CURRENCY_CODE_SCHEMA, description: 'One wallet per customer per currency' })
  @IsString() currency!: string;
}

export class UpdateWalletDto extends WalletSettingsDto {}

class PostingDto {
  @ApiProperty({ ...AMOUNT, ...POSITIVE_AMOUNT, example: '25.00', description: `Above zero, ${EXACT}` })
  @IsString() amount!: string;

  @ApiPropertyOptional({ type: String, minLength: 1, maxLength: 255, example: 'crm-topup-8812', description: 'Your own id for the posting: a second request with it answers the transaction it posted (another amount: 409 `wallet.external_id_conflict`)' })
  @IsOmittable() @IsString() @IsNotEmpty() @MaxLength(255) external_id?: string;

  @ApiPropertyOptional({ type: String, nullable: true, maxLength: 500, example: 'Goodwill credit for the March outage' })
  @IsOptional() @IsString() @MaxLength(500) description?: string | null;
}

export class CreditWalletDto extends PostingDto {
  @ApiProperty({ enum: WALLET_CREDIT_REASONS, description: 'Why the money comes in: required and kept on the transaction' })
  @IsIn(WALLET_CREDIT_REASONS) reason!: WalletCreditReason;
}

export class DebitWalletDto extends PostingDto {
  @ApiProperty({ enum: MANUAL_DEBIT_REASONS, description: 'Why the money goes out: required and kept on the transaction' })
  @IsIn(MANUAL_DEBIT_REASONS) reason!: (typeof MANUAL_DEBIT_REASONS)[number];
}

export class CreateCreditGrantDto extends PostingDto {
  @ApiProperty({ ...CURRENCY_CODE_SCHEMA, description: 'The wallet in this currency is credited (created when the customer has none)' })
  @IsString() currency!: string;
}
