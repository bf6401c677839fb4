/**
 * What other contexts may use of invoicing in their domain: the terms an invoice is collected
 * under. Pure, so a domain folder may import it (the architecture test keeps it so).
 */
export * from './domain/collection-terms';
