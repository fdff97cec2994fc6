import { describeServiceProcess, isolateQueues } from '@pfs/testing';

isolateQueues('quote');

describeServiceProcess('quote', async () => (await import('../src/quote.module')).QuoteModule);
