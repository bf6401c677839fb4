import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString, Matches } from 'class-validator';
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
}
