import { ApiProperty } from '@nestjs/swagger';

const money = (description?: string) => ({ type: String, example: '49.00', description });

/** A signed link to a document's PDF, as `GET /v1/…/{id}/pdf` answers it to a client that prefers JSON. */
abstract class PdfLinkResponse {
  @ApiProperty({
    format: 'uri',
    example: 'https://billing.example.com/invoice-pdfs/inv_01JT2XKQ5ZP9A7N3M4B6C8D0EF?tenant=ten_01JT2X&environment=sandbox&expires=1777629900&signature=q3JxV8mZ2kP0aL5tYw7Rn1sD4fH6gC9bE3uI8oK2xQ',
    description: 'Under Tally’s public URL. Serves the PDF without an API key until `expires_at`; anyone holding it can read the document, so hand it only to its customer',
  })
  url!: string;
  @ApiProperty({ type: String, format: 'date-time', example: '2026-05-01T10:05:00.000Z', description: 'Five minutes after the link was signed' }) expires_at!: string;
}

export class InvoicePdfLinkResponse extends PdfLinkResponse {
  @ApiProperty({ enum: ['invoice_pdf_link'] }) object!: 'invoice_pdf_link';
  @ApiProperty({ example: 'inv_01JT2XKQ5ZP9A7N3M4B6C8D0EF' }) invoice_id!: string;
}

export class CreditNotePdfLinkResponse extends PdfLinkResponse {
  @ApiProperty({ enum: ['credit_note_pdf_link'] }) object!: 'credit_note_pdf_link';
  @ApiProperty({ example: 'cn_01JT2XKQ5ZP9A7N3M4B6C8D0EF' }) credit_note_id!: string;
}

export class RecognitionRowResponse {
  @ApiProperty({ type: String, format: 'date', example: '2026-05-01', description: 'The UTC day' }) date!: string;
  @ApiProperty({ example: 'il_01JT2XKQ5ZP9A7N3M4B6C8D0EF' }) line_id!: string;
  @ApiProperty({ type: String, nullable: true, example: null, description: 'On a reversal of revenue recognised before a credit note: that credit note' }) credit_note_id!: string | null;
  @ApiProperty(money('Negative on a reversal')) amount!: string;
  @ApiProperty({ description: 'The day has ended' }) recognized!: boolean;
}

export class RecognitionScheduleResponse {
  @ApiProperty({ enum: ['recognition_schedule'] }) object!: 'recognition_schedule';
  @ApiProperty({ example: 'inv_01JT2XKQ5ZP9A7N3M4B6C8D0EF' }) invoice_id!: string;
  @ApiProperty({ example: 'EUR' }) currency!: string;
  @ApiProperty({ type: String, format: 'date-time', example: '2026-05-11T10:00:00.000Z', description: 'What `recognized` is relative to: now, on the customer’s test clock if it has one' }) as_of!: string;
  @ApiProperty({ type: () => [RecognitionRowResponse], description: 'This page’s rows, by date, then by the line’s place on the invoice' }) rows!: RecognitionRowResponse[];
  @ApiProperty(money('The sum of all rows, on every page: the lines less what credit notes took off them')) total!: string;
  @ApiProperty(money('The recognised rows’ sum, of all pages')) recognized_to_date!: string;
  @ApiProperty(money('total − recognized_to_date')) deferred!: string;
  @ApiProperty({ description: 'More rows follow this page' }) has_more!: boolean;
  @ApiProperty({ type: String, nullable: true, description: 'Pass it as `cursor` for the next page of rows; null on the last page' }) next_cursor!: string | null;
}
