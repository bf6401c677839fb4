import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString, Matches, MaxLength } from 'class-validator';
import { IsOmittable } from '@tally/http';

export class PayInvoiceDto {
  @ApiPropertyOptional({
    pattern: '^pm_[0-9A-Za-z]+$',
    example: 'pm_01JD8X5Z3Q4W2R6T8Y0V1B3N5M',
    description: 'The method to charge; without one, the subscription’s own method, then the customer’s default',
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
}
