export * from './decider';
export * from './domain-error';
export * from './clock';
export * from './ids';
export * from './metadata';
export * from './money';
export * from './canonical-json';
export * from './countries';
