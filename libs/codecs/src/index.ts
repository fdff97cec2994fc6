export * from './chain-addresses';
export * from './bank-codes';
export * from './webhook-destinations';
