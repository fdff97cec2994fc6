import { type DynamicModule, Module } from '@nestjs/common';
import { DomainError, newId, type EventEnvelope, type OrganizationStanding, type VerificationStatus } from '@pfs/contracts';
import { commandConsumerProvider, EventConsumer, eventConsumerProvider, ServiceRuntimeModule } from '@pfs/messaging';
import { isolateQueues, startServiceUnderTest, type ServiceUnderTest } from '@pfs/testing';
import { LEDGER_COMMAND_HANDLERS } from '../src/adapters/messaging/ledger.command-handlers';
import { LEDGER_EVENT_HANDLERS } from '../src/adapters/messaging/ledger.event-handlers';
import { QueueOrganizationDirectory } from '../src/adapters/organization/queue-organization-directory';
import { BeneficiaryDirectory } from '../src/application/ports/beneficiary-directory';
import { OrganizationStandings } from '../src/application/ports/organization-standings';
import { OpenPrimaryAccountUseCase } from '../src/application/use-cases/open-primary-account/open-primary-account.use-case';
import { LEDGER_PROVIDERS, LEDGER_SERVICE } from '../src/ledger.providers';
import { InMemoryBeneficiaryDirectory } from './support/in-memory/in-memory-beneficiary-directory';

isolateQueues('ledger-standings');

const SLOW = { requestId: 'req_00000000000000000000000000000022', timeoutMs: 60000 };

/** The organization service as the ledger asks it: answers set by the test, every question counted. */
class CountingOwner extends QueueOrganizationDirectory {
  readonly answers = new Map<string, OrganizationStanding>();
  asked = 0;

  constructor() {
    super(undefined as never);
  }

  override async standing(organizationId: string): Promise<OrganizationStanding> {
    this.asked += 1;
    const answer = this.answers.get(organizationId);
    if (!answer) throw new DomainError('organization_not_found', `No organization ${organizationId} was found.`);
    return answer;
  }
}

/** The ledger as it runs, its own copy of standings included; only the organization service's answers are the test's. */
@Module({})
class LedgerWithOwnerModule {
  static with(owner: CountingOwner): DynamicModule {
    const replaced: unknown[] = [QueueOrganizationDirectory, BeneficiaryDirectory];
    return {
      module: LedgerWithOwnerModule,
      imports: [ServiceRuntimeModule.forService(LEDGER_SERVICE)],
      providers: [
        ...LEDGER_PROVIDERS.filter((provider) => !replaced.includes(typeof provider === 'function' ? provider : 'provide' in provider ? provider.provide : undefined)),
        { provide: QueueOrganizationDirectory, useValue: owner },
        { provide: BeneficiaryDirectory, useValue: new InMemoryBeneficiaryDirectory() },
        ...commandConsumerProvider('ledger', LEDGER_COMMAND_HANDLERS),
        ...eventConsumerProvider('ledger', LEDGER_EVENT_HANDLERS),
      ],
    };
  }
}

describe('ledger: its own copy of organization standings (PostgreSQL, Redis)', () => {
  const owner = new CountingOwner();
  let service: ServiceUnderTest;

  beforeAll(async () => {
    service = await startServiceUnderTest(LedgerWithOwnerModule.with(owner));
  });

  afterAll(async () => {
    await service?.close();
  });

  const standingOf = (organizationId: string, verificationStatus: VerificationStatus): OrganizationStanding => ({
    organizationId,
    verificationStatus,
    parentOrganizationId: null,
    parentHoldsActiveLoa: false,
    referrerOrganizationId: null,
  });

  const updated = (standing: OrganizationStanding, sequence: number): EventEnvelope<'organization.standing.updated'> => ({
    id: newId('event'),
    type: 'organization.standing.updated',
    source: 'organization',
    occurredAt: '2026-11-26T10:00:00.000Z',
    requestId: null,
    aggregateId: standing.organizationId,
    sequence,
    data: { ...standing, updatedAt: '2026-11-26T10:00:00.000Z' },
  });

  /** An organization with its primary account holding a USDC address, which the owner says is `status`. */
  async function organization(status: VerificationStatus) {
    const organizationId = newId('organization');
    const accountId = newId('account');
    owner.answers.set(organizationId, standingOf(organizationId, status));
    await service.app.get(OpenPrimaryAccountUseCase).execute({ organizationId, accountId });
    await service.bus.send('ledger', 'funding-methods.provision', { organizationId, accountId, asset: 'USDC' }, SLOW);
    return { organizationId, accountId };
  }

  const faucet = (org: { organizationId: string; accountId: string }) =>
    service.bus.send('ledger', 'faucet.credit', { ...org, asset: 'USDC', amount: '1', chainName: 'ETHEREUM_SEPOLIA' }, SLOW);
  const copyOf = (organizationId: string) => service.app.get(OrganizationStandings).find(organizationId);

  it('asks the owner about an organization it has not heard of once, then decides from its copy', async () => {
    const org = await organization('APPROVED');
    const before = owner.asked;
    await faucet(org);
    await faucet(org);
    await faucet(org);
    expect(owner.asked - before).toBe(1);
    expect(await copyOf(org.organizationId)).toEqual(standingOf(org.organizationId, 'APPROVED'));
  });

  it('takes the newest event whatever order events arrive in; a redelivery changes nothing', async () => {
    const org = await organization('APPROVED');
    const consumer = service.app.get(EventConsumer);
    const third = updated(standingOf(org.organizationId, 'ON_HOLD'), 3);
    expect(await consumer.handle(third)).toBe('ok');
    expect(await consumer.handle(updated(standingOf(org.organizationId, 'APPROVED'), 2))).toBe('ok');
    expect(await consumer.handle(third)).toBe('duplicate');
    expect((await copyOf(org.organizationId))?.verificationStatus).toBe('ON_HOLD');
    expect(await consumer.handle(updated({ ...standingOf(org.organizationId, 'APPROVED'), parentOrganizationId: 'org_parent', parentHoldsActiveLoa: true }, 4))).toBe('ok');
    expect(await copyOf(org.organizationId)).toEqual({ ...standingOf(org.organizationId, 'APPROVED'), parentOrganizationId: 'org_parent', parentHoldsActiveLoa: true });
  });

  it('rebuilt from zero in any order, the copy ends as the newest event says, and so do its decisions', async () => {
    const org = await organization('APPROVED');
    const history: VerificationStatus[] = ['PENDING', 'APPROVED', 'ON_HOLD', 'APPROVED', 'RESUBMISSION_REQUIRED'];
    const events = history.map((status, index) => updated(standingOf(org.organizationId, status), index + 1));
    const consumer = service.app.get(EventConsumer);
    for (const event of [events[3], events[0], events[4], events[2], events[1]]) await consumer.handle(event);
    expect((await copyOf(org.organizationId))?.verificationStatus).toBe('RESUBMISSION_REQUIRED');
    owner.answers.set(org.organizationId, standingOf(org.organizationId, 'RESUBMISSION_REQUIRED'));
    await expect(faucet(org)).rejects.toMatchObject({ code: 'verification_required' });
  });

  it('never refuses on its copy alone: an organization approved a moment ago (its event still on the way) is served, and the copy learns it', async () => {
    const org = await organization('PENDING');
    const consumer = service.app.get(EventConsumer);
    expect(await consumer.handle(updated(standingOf(org.organizationId, 'PENDING'), 1))).toBe('ok');
    await expect(faucet(org)).rejects.toMatchObject({ code: 'verification_required' });

    // Approved at the owner; the event saying so has not arrived.
    owner.answers.set(org.organizationId, standingOf(org.organizationId, 'APPROVED'));
    const before = owner.asked;
    await expect(faucet(org)).resolves.toMatchObject({ status: 'COMPLETED' });
    expect(owner.asked - before).toBe(1);
    expect((await copyOf(org.organizationId))?.verificationStatus).toBe('APPROVED');
    // The late event (sequence 2) still replaces the answer, which kept sequence 1.
    expect(await consumer.handle(updated(standingOf(org.organizationId, 'APPROVED'), 2))).toBe('ok');
    await faucet(org);
    expect(owner.asked - before).toBe(1);
  });
});
