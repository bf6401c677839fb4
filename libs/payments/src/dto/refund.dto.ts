import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { CREDIT_NOTE_RESOLUTIONS, type CreditNoteResolution } from '@tally/invoicing';
import { IsIn, IsString, Matches } from 'class-validator';
import { IsOmittable } from '@tally/http';
import { REFUND_REASONS, type RefundReason } from '../domain/refund.events';

export class CreateRefundDto {
  @ApiPropertyOptional({ pattern: '^[0-9]{1,12}(\\.[0-9]{1,8})?$', example: '20.00', description: 'Default: all that is left to refund of the payment' })
  @IsOmittable() @IsString() @Matches(/^[0-9]{1,12}(\.[0-9]{1,8})?$/, { message: 'amount is a decimal string such as 20.00' })
  amount?: string;

  @ApiPropertyOptional({ enum: REFUND_REASONS, description: 'Default `customer_request`' })
  @IsOmittable() @IsIn(REFUND_REASONS) reason?: RefundReason;

  @ApiPropertyOptional({ enum: ['wallet'], description: '`wallet`: to the customer’s wallet in the payment’s currency; omitted: back to the method the payment was made with (a payment from the wallet always goes back to it)' })
  @IsOmittable() @IsIn(['wallet']) destination?: 'wallet';
}

export class ResolveCreditNoteDto {
  @ApiProperty({ enum: CREDIT_NOTE_RESOLUTIONS, description: '`refunded_out_of_band`: the money was returned another way; `credited_to_wallet`: credit it to the customer’s wallet now' })
  @IsIn(CREDIT_NOTE_RESOLUTIONS) resolution!: CreditNoteResolution;
}
