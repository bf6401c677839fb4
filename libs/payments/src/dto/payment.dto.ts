import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional, IsString, Matches, MaxLength } from 'class-validator';
import { IsOmittable } from '@tally/http';

/** Where a pay request takes the money from, instead of a payment method. */
export const PAY_SOURCES = ['wallet'] as const;
export type PaySource = (typeof PAY_SOURCES)[number];

export class PayInvoiceDto {
  @ApiPropertyOptional({
    pattern: '^pm_[0-9A-Za-z]+$',
    example: 'pm_01JD8X5Z3Q4W2R6T8Y0V1B3N5M',
    description: 'The method to charge; without one (and without `source`), the subscription’s own method, then the customer’s default',
  })
  @IsOptional() @IsString() @Matches(/^pm_[0-9A-Za-z]+$/, { message: 'payment_method_id is a payment method id (pm_…)' })
  payment_method_id?: string;

  @ApiPropertyOptional({ pattern: '^[0-9]{1,12}(\\.[0-9]{1,8})?$', example: '25.00', description: 'Pay a part of what is due (a partial payment: the invoice is `partially_paid`); default: all that is due' })
  @IsOmittable() @IsString() @Matches(/^[0-9]{1,12}(\.[0-9]{1,8})?$/, { message: 'amount is a decimal string such as 25.00' })
  amount?: string;

  @ApiPropertyOptional({
    maxLength: 2048,
    example: 'https://shop.example/orders/7/paid',
    description:
      'Where the hosted authentication page sends the customer once they authenticated or failed to, with `payment_id=<id>` appended to its query: an absolute http or https URL. Read the payment’s status from the API there; the query proves nothing',
  })
  @IsOmittable() @IsString() @MaxLength(2048)
  return_url?: string;

  @ApiPropertyOptional({
    enum: PAY_SOURCES,
    description: '`wallet`: pay from the customer’s wallet in the invoice’s currency, as much of what is due (or of `amount`) as its balance covers, a partial payment when it covers less. Not with `payment_method_id` or `return_url` (400 `payment.source_conflict`)',
  })
  @IsOmittable() @IsIn(PAY_SOURCES)
  source?: PaySource;
}
