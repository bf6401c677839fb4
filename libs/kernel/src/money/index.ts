export * from './currencies';
export * from './money';
