export * from './test-env';
export * from './eventually';
export * from './in-process-service';
export * from './test-database';
export * from './service-smoke';
export * from './ledger-invariants';
export * from './redis-contents';
export * from './statements';
