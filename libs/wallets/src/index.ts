export * from './published';
export * from './domain/wallet.decider';
export * from './wallet.aggregate';
export * from './wallet.view';
export * from './wallet.resource';
export * from './customer-wallets';
export * from './wallets.module';
export * from './wallets.context';
