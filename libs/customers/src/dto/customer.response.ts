import { ApiProperty } from '@nestjs/swagger';
import { METADATA_SCHEMA, type KnownFields } from '@tally/http';
import type { Address } from '../domain/customer.events';
import type { TaxIdStatus } from '../domain/customer.decider';
import type { CustomerResource, TaxIdResource } from '../customer.view';

export class AddressResponse implements Address {
  @ApiProperty({ type: String, nullable: true }) line1!: string | null;
  @ApiProperty({ type: String, nullable: true }) city!: string | null;
  @ApiProperty({ type: String, nullable: true }) region!: string | null;
  @ApiProperty({ type: String, nullable: true, description: 'ISO 3166-1 alpha-2', example: 'DE' }) country!: string | null;
  @ApiProperty({ type: String, nullable: true }) postal_code!: string | null;
}

type TaxIdVerification = TaxIdResource['verification'];

export class TaxIdVerificationResponse implements TaxIdVerification {
  @ApiProperty({ enum: ['pending', 'verified', 'invalid'] satisfies TaxIdStatus[], description: 'Tax IDs are verified asynchronously; `pending` until then' })
  status!: TaxIdStatus;

  @ApiProperty({ type: String, nullable: true, description: 'Why the tax ID is invalid' })
  reason!: string | null;
}

export class TaxIdResponse implements TaxIdResource {
  @ApiProperty({ example: 'txi_01JD…' }) id!: string;
  @ApiProperty({ enum: ['tax_id'] }) object!: 'tax_id';
  @ApiProperty({ example: 'eu_vat' }) type!: string;
  @ApiProperty({ example: 'DE136695976' }) value!: string;
  @ApiProperty({ type: String, nullable: true, description: 'Known once verified' }) country!: string | null;
  @ApiProperty({ type: () => TaxIdVerificationResponse }) verification!: TaxIdVerificationResponse;
  @ApiProperty({ format: 'date-time' }) created_at!: string;
}

export class DeletedTaxIdResponse {
  @ApiProperty({ example: 'txi_01JD…' }) id!: string;
  @ApiProperty({ enum: ['tax_id'] }) object!: 'tax_id';
  @ApiProperty({ enum: [true] }) deleted!: true;
}

export class CustomerResponse implements KnownFields<CustomerResource> {
  @ApiProperty({ example: 'cus_01JD…' }) id!: string;
  @ApiProperty({ enum: ['customer'] }) object!: 'customer';
  @ApiProperty({ type: String, nullable: true }) email!: string | null;
  @ApiProperty({ type: String, nullable: true }) name!: string | null;
  @ApiProperty({ type: () => AddressResponse, nullable: true }) billing_address!: AddressResponse | null;
  @ApiProperty(METADATA_SCHEMA) metadata!: Record<string, string>;
  @ApiProperty({ type: String, nullable: true }) default_payment_method_id!: string | null;
  @ApiProperty({ type: () => [TaxIdResponse] }) tax_ids!: TaxIdResponse[];
  @ApiProperty({ description: 'True while any tax ID is invalid' }) tax_id_invalid!: boolean;
  @ApiProperty({ type: String, nullable: true, example: null, description: 'The sandbox test clock the customer lives on' }) test_clock!: string | null;
  @ApiProperty({ description: 'False in the sandbox' }) livemode!: boolean;
  @ApiProperty({ format: 'date-time' }) created_at!: string;
  @ApiProperty({ format: 'date-time' }) updated_at!: string;
}
