export * from './domain/ledger-accounts';
export * from './domain/journal-entry';
export * from './domain/ledger-postings';
export * from './domain/ledger-report';
export * from './ledger.projection';
export * from './ledger-reports';
export * from './reports.module';
export * from './reports.context';
