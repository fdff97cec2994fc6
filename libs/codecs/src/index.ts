export * from './chain-addresses';
export * from './bank-codes';
