import type { Provider } from '@nestjs/common';
import { commandBusProvider, PLATFORM_CONFIG, type ServiceIdentity } from '@pfs/messaging';
import { beneficiaryDataBox, type PlatformConfig } from '@pfs/platform';
import { EnvBeneficiarySettings } from './adapters/config/env-beneficiary-settings';
import { QueueAccountDirectory } from './adapters/ledger/queue-account-directory';
import { QueueServicenetDirectory } from './adapters/organization/queue-servicenet-directory';
import { BENEFICIARY_DATA_BOX, PrismaBeneficiaryRepository } from './adapters/persistence/prisma-beneficiary.repository';
import { BeneficiaryLifecycle } from './application/beneficiary-lifecycle';
import { BeneficiaryRegistrar } from './application/beneficiary-registrar';
import { AccountDirectory } from './application/ports/account-directory';
import { BeneficiaryRepository } from './application/ports/beneficiary.repository';
import { BeneficiarySettings } from './application/ports/beneficiary-settings';
import { ServicenetDirectory } from './application/ports/servicenet-directory';
import { CreateServicenetBeneficiaryUseCase } from './application/use-cases/create-servicenet-beneficiary/create-servicenet-beneficiary.use-case';
import { ArchiveBeneficiaryUseCase } from './application/use-cases/archive-beneficiary/archive-beneficiary.use-case';
import { BlockBeneficiaryUseCase } from './application/use-cases/block-beneficiary/block-beneficiary.use-case';
import { CreateBankBeneficiaryUseCase } from './application/use-cases/create-bank-beneficiary/create-bank-beneficiary.use-case';
import { CreateCryptoBeneficiaryUseCase } from './application/use-cases/create-crypto-beneficiary/create-crypto-beneficiary.use-case';
import { GetBeneficiaryUseCase } from './application/use-cases/get-beneficiary/get-beneficiary.use-case';
import { GetPayableBeneficiaryUseCase } from './application/use-cases/get-payable-beneficiary/get-payable-beneficiary.use-case';
import { ListBeneficiariesUseCase } from './application/use-cases/list-beneficiaries/list-beneficiaries.use-case';
import { UnarchiveBeneficiaryUseCase } from './application/use-cases/unarchive-beneficiary/unarchive-beneficiary.use-case';
import { UnblockBeneficiaryUseCase } from './application/use-cases/unblock-beneficiary/unblock-beneficiary.use-case';
import { UpdateBeneficiaryUseCase } from './application/use-cases/update-beneficiary/update-beneficiary.use-case';

export const BENEFICIARY_SERVICE: ServiceIdentity = { service: 'beneficiary', schema: 'beneficiary' };

/** Ports bound to adapters, and the use cases of the beneficiary service. */
export const BENEFICIARY_PROVIDERS: Provider[] = [
  { provide: BENEFICIARY_DATA_BOX, useFactory: (config: PlatformConfig) => beneficiaryDataBox(config), inject: [PLATFORM_CONFIG] },
  { provide: BeneficiaryRepository, useClass: PrismaBeneficiaryRepository },
  { provide: AccountDirectory, useClass: QueueAccountDirectory },
  { provide: ServicenetDirectory, useClass: QueueServicenetDirectory },
  { provide: BeneficiarySettings, useFactory: (config: PlatformConfig) => new EnvBeneficiarySettings(config.serviceEnv), inject: [PLATFORM_CONFIG] },
  ...commandBusProvider(),
  BeneficiaryRegistrar,
  BeneficiaryLifecycle,
  CreateBankBeneficiaryUseCase,
  CreateCryptoBeneficiaryUseCase,
  CreateServicenetBeneficiaryUseCase,
  ListBeneficiariesUseCase,
  GetBeneficiaryUseCase,
  UpdateBeneficiaryUseCase,
  ArchiveBeneficiaryUseCase,
  UnarchiveBeneficiaryUseCase,
  BlockBeneficiaryUseCase,
  UnblockBeneficiaryUseCase,
  GetPayableBeneficiaryUseCase,
];
