export * from './prisma-client.factory';
export * from './migration-runner';
export * from './prisma-errors';
export * from './transaction-host';
export * from './keyset-page';
export * from './decimal-column';
export * from './driver-statement';
export * from './batched-reads';
