import { describeServiceProcess, isolateQueues } from '@pfs/testing';

isolateQueues('beneficiary');

describeServiceProcess('beneficiary', async () => (await import('../src/beneficiary.module')).BeneficiaryModule);
