export * from './domain/invoice-lines';
export * from './domain/discounts';
export * from './domain/invoice-calculator';
export * from './invoice-preview';
export * from './invoicing.module';
export * from './invoicing.context';
