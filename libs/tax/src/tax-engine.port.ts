import { Injectable } from '@nestjs/common';
import { calculateTax } from './domain/calculate-tax';
import type { TaxCalculation, TaxRequest } from './domain/tax';

/** Calculates the tax of invoice lines; an external tax provider can take the built-in rules' place. */
export interface TaxEngine {
  calculate(request: TaxRequest): Promise<TaxCalculation>;
}

export const TAX_ENGINE = Symbol('TaxEngine');

/** The built-in engine: the versioned rate table and rules of domain/ (docs/tax.md). */
@Injectable()
export class RuleBasedTaxEngine implements TaxEngine {
  async calculate(request: TaxRequest): Promise<TaxCalculation> {
    return calculateTax(request);
  }
}
