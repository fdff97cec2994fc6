import { Big, DomainError, newId } from '@pfs/contracts';
import { InMemoryAccountRepository } from '../../../../test/support/in-memory/in-memory-account.repository';
import { Account, type FundingMethod } from '../../../domain/account';
import { AccountNotFoundError } from '../../../domain/ledger-errors';
import { GetAccountUseCase } from './get-account.use-case';

describe('GetAccountUseCase', () => {
  const created = new Date('2026-11-20T10:00:00.000Z');
  const updated = new Date('2026-11-21T04:44:09.123Z');
  const organizationId = newId('organization');
  const otherOrganizationId = newId('organization');
  const accountId = newId('account');
  const method: FundingMethod = {
    id: newId('fundingMethod'),
    accountId,
    asset: 'USDC',
    type: 'CRYPTO_ADDRESS',
    chainName: 'ETHEREUM_SEPOLIA',
    address: '0x52908400098527886E0F7030069857D2E4169EE7',
    bank: null,
    createdAt: updated,
  };
  const account = new Account(
    accountId,
    organizationId,
    'Primary account',
    null,
    true,
    'ACTIVE',
    [
      { asset: 'BTC', amount: new Big('0.00000001') },
      { asset: 'USD', amount: new Big('1000') },
      { asset: 'USDC', amount: new Big('12.5') },
    ],
    [method],
    created,
    updated,
  );
  const useCase = new GetAccountUseCase(new InMemoryAccountRepository([account]));

  it("presents the caller's own account, amounts as decimal strings at the asset's scale", async () => {
    await expect(useCase.execute({ organizationId, accountId })).resolves.toEqual({
      object: 'account',
      accountId,
      name: 'Primary account',
      description: null,
      isPrimary: true,
      status: 'ACTIVE',
      fundingMethods: [
        {
          object: 'funding_method',
          fundingMethodId: method.id,
          accountId,
          asset: 'USDC',
          type: 'CRYPTO_ADDRESS',
          chainName: 'ETHEREUM_SEPOLIA',
          address: '0x52908400098527886E0F7030069857D2E4169EE7',
          bank: null,
          createdAt: '2026-11-21T04:44:09.123Z',
        },
      ],
      balances: [
        { object: 'balance', asset: 'BTC', amount: '0.00000001' },
        { object: 'balance', asset: 'USD', amount: '1000.00' },
        { object: 'balance', asset: 'USDC', amount: '12.500000' },
      ],
      createdAt: '2026-11-20T10:00:00.000Z',
      updatedAt: '2026-11-21T04:44:09.123Z',
    });
  });

  it("answers another organization's account exactly as a missing one: account_not_found", async () => {
    const foreign = await useCase.execute({ organizationId: otherOrganizationId, accountId }).catch((error: unknown) => error);
    const missing = await useCase.execute({ organizationId: otherOrganizationId, accountId: newId('account') }).catch((error: unknown) => error);

    expect(foreign).toBeInstanceOf(AccountNotFoundError);
    expect(missing).toBeInstanceOf(AccountNotFoundError);
    expect((foreign as DomainError).toPayload()).toEqual({ code: 'account_not_found', message: `No account ${accountId} was found.` });
    expect((missing as DomainError).code).toBe('account_not_found');
  });
});
