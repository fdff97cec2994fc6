import { commandHandlers, PingUseCase } from '@pfs/messaging';
import { ArchiveBeneficiaryUseCase } from '../../application/use-cases/archive-beneficiary/archive-beneficiary.use-case';
import { BlockBeneficiaryUseCase } from '../../application/use-cases/block-beneficiary/block-beneficiary.use-case';
import { CreateBankBeneficiaryUseCase } from '../../application/use-cases/create-bank-beneficiary/create-bank-beneficiary.use-case';
import { CreateCryptoBeneficiaryUseCase } from '../../application/use-cases/create-crypto-beneficiary/create-crypto-beneficiary.use-case';
import { CreateServicenetBeneficiaryUseCase } from '../../application/use-cases/create-servicenet-beneficiary/create-servicenet-beneficiary.use-case';
import { GetBeneficiaryUseCase } from '../../application/use-cases/get-beneficiary/get-beneficiary.use-case';
import { GetPayableBeneficiaryUseCase } from '../../application/use-cases/get-payable-beneficiary/get-payable-beneficiary.use-case';
import { ListBeneficiariesUseCase } from '../../application/use-cases/list-beneficiaries/list-beneficiaries.use-case';
import { UnarchiveBeneficiaryUseCase } from '../../application/use-cases/unarchive-beneficiary/unarchive-beneficiary.use-case';
import { UnblockBeneficiaryUseCase } from '../../application/use-cases/unblock-beneficiary/unblock-beneficiary.use-case';
import { UpdateBeneficiaryUseCase } from '../../application/use-cases/update-beneficiary/update-beneficiary.use-case';

/**
 * The beneficiary service's queue: one line per command of `libs/contracts/src/commands/beneficiary.ts`.
 * `<resource>.<verb>` is answered by `use-cases/<verb>-<resource>/`.
 */
export const BENEFICIARY_COMMAND_HANDLERS = commandHandlers('beneficiary', {
  'system.ping': PingUseCase,
  'bank-beneficiaries.create': CreateBankBeneficiaryUseCase,
  'crypto-beneficiaries.create': CreateCryptoBeneficiaryUseCase,
  'servicenet-beneficiaries.create': CreateServicenetBeneficiaryUseCase,
  'beneficiaries.list': ListBeneficiariesUseCase,
  'beneficiaries.get': GetBeneficiaryUseCase,
  'beneficiaries.update': UpdateBeneficiaryUseCase,
  'beneficiaries.archive': ArchiveBeneficiaryUseCase,
  'beneficiaries.unarchive': UnarchiveBeneficiaryUseCase,
  'beneficiaries.block': BlockBeneficiaryUseCase,
  'beneficiaries.unblock': UnblockBeneficiaryUseCase,
  'payable-beneficiaries.get': GetPayableBeneficiaryUseCase,
});
