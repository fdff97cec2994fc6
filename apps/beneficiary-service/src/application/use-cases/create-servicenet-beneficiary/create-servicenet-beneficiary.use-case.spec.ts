import { beneficiaryInMemory, type FixedServicenetDirectory } from '../../../../test/support/in-memory/beneficiary-in-memory.kit';

describe('CreateServicenetBeneficiaryUseCase (in memory)', () => {
  let kit: ReturnType<typeof beneficiaryInMemory>;
  let servicenet: FixedServicenetDirectory;
  const command = (overrides: Record<string, unknown> = {}) => ({ organizationId: 'org_1', accountId: 'acct_1', nickname: 'Globex payables', handle: 'Globex', ...overrides });

  beforeEach(() => {
    kit = beneficiaryInMemory();
    servicenet = kit.servicenet;
  });

  it('creates an ACTIVE SERVICENET beneficiary showing the handle and name, never the other organization’s id', async () => {
    const view = await kit.createServicenet.execute(command({ tags: ['vendor'] }));
    expect(view).toMatchObject({
      object: 'beneficiary',
      beneficiaryId: expect.stringMatching(/^bene_/),
      accountId: 'acct_1',
      type: 'SERVICENET',
      nickname: 'Globex payables',
      status: 'ACTIVE',
      tags: ['vendor'],
      bank: null,
      crypto: null,
      servicenet: { handle: 'globex', organizationName: 'Globex Ltd' },
      duplicateOf: null,
      createdAt: '2026-11-23T08:00:00.000Z',
    });
    expect(JSON.stringify(view)).not.toContain('org_2');
    expect(kit.beneficiaries.beneficiaries.get(view.beneficiaryId)?.props.servicenet).toEqual({ organizationId: 'org_2', handle: 'globex', organizationName: 'Globex Ltd' });
    expect(await kit.get.execute({ organizationId: 'org_1', beneficiaryId: view.beneficiaryId })).toEqual(view);
  });

  it('flags a second payee to the same organization as a duplicate', async () => {
    const first = await kit.createServicenet.execute(command());
    expect((await kit.createServicenet.execute(command({ nickname: 'Globex again' }))).duplicateOf).toBe(first.beneficiaryId);
  });

  it('refuses a caller off servicenet with servicenet_not_enabled', async () => {
    servicenet.enabled.delete('org_1');
    await expect(kit.createServicenet.execute(command())).rejects.toMatchObject({ code: 'servicenet_not_enabled' });
    expect(kit.beneficiaries.beneficiaries.size).toBe(0);
  });

  it('answers servicenet_handle_not_found for a handle no one holds, or whose organization is off servicenet', async () => {
    await expect(kit.createServicenet.execute(command({ handle: 'nobody' }))).rejects.toMatchObject({ code: 'servicenet_handle_not_found' });
    servicenet.enabled.delete('org_2');
    await expect(kit.createServicenet.execute(command())).rejects.toMatchObject({ code: 'servicenet_handle_not_found' });
    expect(kit.beneficiaries.beneficiaries.size).toBe(0);
  });

  it('refuses the caller’s own handle with invalid_request naming handle', async () => {
    await expect(kit.createServicenet.execute(command({ handle: 'MINE' }))).rejects.toMatchObject({ code: 'invalid_request', message: expect.stringMatching(/^handle: /) });
  });

  it('refuses another organization’s account with account_not_found, and a blank nickname with invalid_request', async () => {
    await expect(kit.createServicenet.execute(command({ accountId: 'acct_other' }))).rejects.toMatchObject({ code: 'account_not_found' });
    await expect(kit.createServicenet.execute(command({ nickname: ' ' }))).rejects.toMatchObject({ code: 'invalid_request', message: expect.stringMatching(/^nickname: /) });
  });
});
