import { DomainError, newId } from '@pfs/contracts';
import { isolateQueues } from '@pfs/testing';
import { createFundingMethodTestKit, type FundingMethodTestKit } from '../support/funding-method-test-kit';

isolateQueues('ledger-get-fm');

describe('GetFundingMethodUseCase (real PostgreSQL)', () => {
  let kit: FundingMethodTestKit;

  beforeAll(() => {
    kit = createFundingMethodTestKit('get-spec');
  });

  afterAll(async () => {
    await kit.close();
  });

  it('returns a method of one of the organization’s accounts, as provisioning presented it', async () => {
    const { organizationId, otherIds } = await kit.openOrganization(1);
    const [method] = await kit.provision.execute({ organizationId, accountId: otherIds[0], asset: 'EUR' });

    await expect(kit.getFundingMethod.execute({ organizationId, fundingMethodId: method.fundingMethodId })).resolves.toEqual(method);
  });

  it("answers funding_method_not_found for another organization's method and an unknown id alike", async () => {
    const owner = await kit.openOrganization();
    const stranger = await kit.openOrganization();
    const [method] = await kit.provision.execute({ organizationId: owner.organizationId, accountId: null, asset: 'USD' });

    const foreign = await kit.getFundingMethod.execute({ organizationId: stranger.organizationId, fundingMethodId: method.fundingMethodId }).catch((error: unknown) => error);
    const unknown = await kit.getFundingMethod.execute({ organizationId: owner.organizationId, fundingMethodId: newId('fundingMethod') }).catch((error: unknown) => error);

    expect((foreign as DomainError).toPayload()).toEqual({ code: 'funding_method_not_found', message: `No funding method ${method.fundingMethodId} was found.` });
    expect((unknown as DomainError).code).toBe('funding_method_not_found');
  });
});
