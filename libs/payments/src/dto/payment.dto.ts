import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString, Matches } from 'class-validator';

export class PayInvoiceDto {
  @ApiPropertyOptional({
    pattern: '^pm_[0-9A-Za-z]+$',
    example: 'pm_01JD8X5Z3Q4W2R6T8Y0V1B3N5M',
    description: 'The method to charge; without one, the subscription’s own method, then the customer’s default',
  })
  @IsOptional() @IsString() @Matches(/^pm_[0-9A-Za-z]+$/, { message: 'payment_method_id is a payment method id (pm_…)' })
  payment_method_id?: string;
}
