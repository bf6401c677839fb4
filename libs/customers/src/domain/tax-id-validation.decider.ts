import { oneCommandProcess, type ProcessInput } from '@tally/kernel';

export type TaxIdAdded = ProcessInput<'CustomerTaxIdAdded', { customer_id: string; tax_id_id: string }>;
export type ValidateTaxId = { type: 'ValidateTaxId'; data: { customer_id: string; tax_id_id: string } };

/** One process per tax ID: ask the customer to validate it, once; a refusal (the tax ID was deleted first) ends it. */
export const taxIdValidationDecider = oneCommandProcess((added: TaxIdAdded): ValidateTaxId => ({ type: 'ValidateTaxId', data: added.data }));
