export * from './chain-addresses';
export * from './bank-codes';
export * from './webhook-destinations';
export * from './webhook-signatures';
export * from './contact-codes';
