import { randomInt } from 'node:crypto';
import { newId, newRequestId, type CommandJobData } from '@pfs/contracts';
import { createLogger } from '@pfs/platform';
import { eventually, isolateQueues, redisKeysHolding } from '@pfs/testing';
import { RemoteDomainError } from '../src';
import { PassThroughCommandLog } from './support/ping-only-handlers';
import { useQueueUnderTest } from './support/queue-under-test';

const prefix = isolateQueues('msg-failed-jobs');

/*
 * A command job that fails for good leaves nothing of its payload in Redis when it is a mutation
 * (a beneficiary's account number, IBAN, tax id): its job is deleted as it fails, after its
 * sender has had internal_error. A failed query's job (ids only) is kept to be looked at.
 * The beneficiary queue, with handlers that fail as a broken database would.
 */
const { bus, queue, queries } = useQueueUnderTest('beneficiary', () => Promise.reject(new Error('could not reach the database')), {
  prefix,
  logger: createLogger('failed-jobs-test', 'silent'),
  commandLog: new PassThroughCommandLog(),
});

const digits = (n: number): string => Array.from({ length: n }, () => randomInt(10)).join('');

/** Until no job of either queue waits, runs or waits for its retry: every attempt has ended. */
const finished = () =>
  eventually(async () => {
    const counts = await Promise.all([queue, queries].map((lane) => lane.getJobCounts('waiting', 'active', 'delayed', 'prioritized')));
    return counts.every((lane) => Object.values(lane).every((count) => count === 0)) ? true : undefined;
  });

describe('failed command jobs', () => {
  it("keep no payee's account number, IBAN or tax id in Redis once a mutation has failed", async () => {
    const payee = { accountNumber: digits(12), iban: `DE89370400${digits(12)}`, taxId: `DE${digits(9)}` };
    const requestId = newRequestId();
    const failure = bus.send(
      'beneficiary',
      'bank-beneficiaries.create',
      {
        organizationId: newId('organization'),
        accountId: newId('account'),
        nickname: 'Supplier',
        bankName: 'Deutsche Bank',
        method: 'SEPA',
        currency: 'EUR',
        swiftCode: 'DEUTDEFF',
        bankCountry: 'DE',
        ...payee,
      },
      { requestId, commandId: newId('command') },
    );
    await expect(failure).rejects.toBeInstanceOf(RemoteDomainError);
    await expect(failure).rejects.toMatchObject({ code: 'internal_error' });

    await finished();
    expect(await redisKeysHolding(prefix, payee)).toEqual({ accountNumber: [], iban: [], taxId: [] });
    expect((await queue.getFailed()).filter((job) => (job.data as CommandJobData).meta.requestId === requestId)).toEqual([]);
  });

  it('keep a failed query for an hour, to be looked at', async () => {
    const requestId = newRequestId();
    const beneficiaryId = newId('beneficiary');
    await expect(bus.send('beneficiary', 'beneficiaries.get', { organizationId: newId('organization'), beneficiaryId }, { requestId })).rejects.toMatchObject({
      code: 'internal_error',
    });

    await finished();
    const [failed] = (await queries.getFailed()).filter((job) => (job.data as CommandJobData).meta.requestId === requestId);
    expect(failed).toMatchObject({ name: 'beneficiaries.get', attemptsMade: 2, failedReason: 'could not reach the database', opts: { removeOnFail: { age: 3600 } } });
    expect(await redisKeysHolding(prefix, { beneficiaryId })).toEqual({ beneficiaryId: [expect.stringContaining(`${prefix}:beneficiary-queries:`)] });
  });
});
