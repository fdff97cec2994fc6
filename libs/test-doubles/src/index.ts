export * from './in-memory-ports';
export * from './keyset';
