import { CursorCodec, type ServiceEnvironment, type ServicenetHandleResolution } from '@pfs/contracts';
import { InMemoryUnitOfWork, ManualClock, SequentialIdGenerator } from '@pfs/test-doubles';
import { BeneficiaryLifecycle } from '../../../src/application/beneficiary-lifecycle';
import { BeneficiaryRegistrar } from '../../../src/application/beneficiary-registrar';
import { AccountDirectory } from '../../../src/application/ports/account-directory';
import { BeneficiarySettings } from '../../../src/application/ports/beneficiary-settings';
import { ServicenetDirectory } from '../../../src/application/ports/servicenet-directory';
import { CreateServicenetBeneficiaryUseCase } from '../../../src/application/use-cases/create-servicenet-beneficiary/create-servicenet-beneficiary.use-case';
import { ArchiveBeneficiaryUseCase } from '../../../src/application/use-cases/archive-beneficiary/archive-beneficiary.use-case';
import { BlockBeneficiaryUseCase } from '../../../src/application/use-cases/block-beneficiary/block-beneficiary.use-case';
import { CreateBankBeneficiaryUseCase } from '../../../src/application/use-cases/create-bank-beneficiary/create-bank-beneficiary.use-case';
import type { CreateBankBeneficiaryCommand } from '../../../src/application/use-cases/create-bank-beneficiary/create-bank-beneficiary.command';
import { CreateCryptoBeneficiaryUseCase } from '../../../src/application/use-cases/create-crypto-beneficiary/create-crypto-beneficiary.use-case';
import type { CreateCryptoBeneficiaryCommand } from '../../../src/application/use-cases/create-crypto-beneficiary/create-crypto-beneficiary.command';
import { GetBeneficiaryUseCase } from '../../../src/application/use-cases/get-beneficiary/get-beneficiary.use-case';
import { GetPayableBeneficiaryUseCase } from '../../../src/application/use-cases/get-payable-beneficiary/get-payable-beneficiary.use-case';
import { ListBeneficiariesUseCase } from '../../../src/application/use-cases/list-beneficiaries/list-beneficiaries.use-case';
import { UnarchiveBeneficiaryUseCase } from '../../../src/application/use-cases/unarchive-beneficiary/unarchive-beneficiary.use-case';
import { UnblockBeneficiaryUseCase } from '../../../src/application/use-cases/unblock-beneficiary/unblock-beneficiary.use-case';
import { UpdateBeneficiaryUseCase } from '../../../src/application/use-cases/update-beneficiary/update-beneficiary.use-case';
import { InMemoryBeneficiaryRepository } from './in-memory-beneficiary.repository';

/** The ledger's accounts as the test writes them: account id → owning organization. */
export class FixedAccountDirectory extends AccountDirectory {
  readonly owners = new Map<string, string>([
    ['acct_1', 'org_1'],
    ['acct_2', 'org_1'],
    ['acct_other', 'org_2'],
  ]);

  async isAccountOf(organizationId: string, accountId: string): Promise<boolean> {
    return this.owners.get(accountId) === organizationId;
  }
}

/** Servicenet as the test writes it: who is on it, and the handles (lower-case) with their holders. */
export class FixedServicenetDirectory extends ServicenetDirectory {
  readonly enabled = new Set<string>(['org_1', 'org_2']);
  readonly handles = new Map<string, { organizationId: string; organizationName: string }>([
    ['mine', { organizationId: 'org_1', organizationName: 'Org One' }],
    ['globex', { organizationId: 'org_2', organizationName: 'Globex Ltd' }],
  ]);

  async isEnabled(organizationId: string): Promise<boolean> {
    return this.enabled.has(organizationId);
  }

  async resolve(handle: string): Promise<ServicenetHandleResolution | null> {
    const lower = handle.toLowerCase();
    const holder = this.handles.get(lower);
    return holder ? { ...holder, handle: lower, enabled: this.enabled.has(holder.organizationId) } : null;
  }
}

export class FixedBeneficiarySettings extends BeneficiarySettings {
  constructor(public environment: ServiceEnvironment = 'sandbox') {
    super();
  }
}

/** A SEPA payee of org_1's acct_1, as the gateway would forward it. */
export function bankCommand(overrides: Partial<CreateBankBeneficiaryCommand> = {}): CreateBankBeneficiaryCommand {
  return {
    organizationId: 'org_1',
    accountId: 'acct_1',
    nickname: 'Jane at Commerzbank',
    bankName: 'Commerzbank',
    method: 'SEPA',
    currency: 'EUR',
    swiftCode: 'COBADEFFXXX',
    accountNumber: '0532013000',
    bankCountry: 'DE',
    iban: 'DE89370400440532013000',
    entityType: 'INDIVIDUAL',
    firstName: 'Jane',
    lastName: 'Doe',
    taxId: '12345678901',
    taxIdType: 'TIN',
    ...overrides,
  };
}

/** A Sepolia wallet of org_1's acct_1. */
export function cryptoCommand(overrides: Partial<CreateCryptoBeneficiaryCommand> = {}): CreateCryptoBeneficiaryCommand {
  return { organizationId: 'org_1', accountId: 'acct_1', nickname: 'Cold wallet', chainName: 'ETHEREUM_SEPOLIA', address: '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed', asset: 'USDC', ...overrides };
}

/** The beneficiary service's use cases wired in memory. */
export function beneficiaryInMemory(environment: ServiceEnvironment = 'sandbox') {
  const clock = new ManualClock();
  const ids = new SequentialIdGenerator();
  const unitOfWork = new InMemoryUnitOfWork();
  const beneficiaries = new InMemoryBeneficiaryRepository();
  const accounts = new FixedAccountDirectory();
  const settings = new FixedBeneficiarySettings(environment);
  const servicenet = new FixedServicenetDirectory();
  const cursors = new CursorCodec('test-cursor-secret');
  const registrar = new BeneficiaryRegistrar(unitOfWork, beneficiaries, accounts);
  const lifecycle = new BeneficiaryLifecycle(unitOfWork, beneficiaries, clock);
  return {
    clock,
    beneficiaries,
    accounts,
    settings,
    servicenet,
    createServicenet: new CreateServicenetBeneficiaryUseCase(registrar, servicenet, ids, clock),
    createBank: new CreateBankBeneficiaryUseCase(registrar, ids, clock),
    createCrypto: new CreateCryptoBeneficiaryUseCase(registrar, settings, ids, clock),
    list: new ListBeneficiariesUseCase(beneficiaries, cursors),
    get: new GetBeneficiaryUseCase(beneficiaries),
    update: new UpdateBeneficiaryUseCase(unitOfWork, beneficiaries, accounts, settings, clock),
    archive: new ArchiveBeneficiaryUseCase(lifecycle),
    unarchive: new UnarchiveBeneficiaryUseCase(lifecycle),
    block: new BlockBeneficiaryUseCase(lifecycle, settings),
    unblock: new UnblockBeneficiaryUseCase(lifecycle, settings),
    getPayable: new GetPayableBeneficiaryUseCase(beneficiaries),
  };
}
