import { DomainError } from '@pfs/contracts';
import { fundingMethodInMemory, type FundingMethodInMemory } from '../../../../test/support/in-memory/funding-method-in-memory.kit';

describe('GetFundingMethodUseCase (in memory)', () => {
  let ledger: FundingMethodInMemory;

  beforeEach(() => {
    ledger = fundingMethodInMemory();
  });

  it('returns a method of one of the organization’s accounts as provisioning presented it', async () => {
    const { organizationId, otherIds } = await ledger.openOrganization(1);
    const [method] = await ledger.provision.execute({ organizationId, accountId: otherIds[0], asset: 'EUR' });
    expect(await ledger.getFundingMethod.execute({ organizationId, fundingMethodId: method.fundingMethodId })).toEqual(method);
  });

  it('answers funding_method_not_found for another organization’s method and an unknown id alike', async () => {
    const owner = await ledger.openOrganization();
    const stranger = await ledger.openOrganization();
    const [method] = await ledger.provision.execute({ organizationId: owner.organizationId, accountId: null, asset: 'USD' });
    const foreign = await ledger.getFundingMethod.execute({ organizationId: stranger.organizationId, fundingMethodId: method.fundingMethodId }).catch((error: unknown) => error);
    expect((foreign as DomainError).toPayload()).toEqual({ code: 'funding_method_not_found', message: `No funding method ${method.fundingMethodId} was found.` });
    await expect(ledger.getFundingMethod.execute({ organizationId: owner.organizationId, fundingMethodId: 'fm_ffffffffffffffffffffffffffffffff' })).rejects.toMatchObject({
      code: 'funding_method_not_found',
    });
  });
});
