/**
 * What other contexts may use of tax: the pure vocabulary and the calculation. Pure, so a domain
 * folder may import it (the architecture test keeps it so).
 */
export * from './domain/tax';
export { calculateTax } from './domain/calculate-tax';
