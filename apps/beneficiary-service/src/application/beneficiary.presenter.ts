import type { BeneficiaryView, PayableBeneficiaryView } from '@pfs/contracts';
import { bankDetailsView } from '../domain/bank-details';
import type { Beneficiary } from '../domain/beneficiary';

/** Spec 2.5 as api-decisions §7 shapes it: the account number only by its last four, the tax id never. */
export function presentBeneficiary(beneficiary: Beneficiary): BeneficiaryView {
  const b = beneficiary.props;
  const { taxId: _taxId, ...identity } = b.identity;
  return {
    object: 'beneficiary',
    beneficiaryId: b.id,
    accountId: b.accountId,
    type: b.type,
    nickname: b.nickname,
    status: b.status,
    ...identity,
    tags: [...b.tags],
    metadata: { ...b.metadata },
    crypto: b.crypto && { chainName: b.crypto.chainName, chainDisplayName: b.crypto.chainDisplayName, platform: b.crypto.platform, address: b.crypto.address, asset: b.crypto.asset },
    bank: b.bank && bankDetailsView(b.bank),
    servicenet: b.servicenet && { handle: b.servicenet.handle, organizationName: b.servicenet.organizationName },
    duplicateOf: b.duplicateOf,
    createdAt: b.createdAt.toISOString(),
    updatedAt: b.updatedAt.toISOString(),
  };
}

/** For payouts only (never on the API): what a rail needs, the full account number included. */
export function presentPayable(beneficiary: Beneficiary): PayableBeneficiaryView {
  const b = beneficiary.props;
  const { firstName, lastName, businessName, legalName, country } = b.identity;
  const person = [firstName, lastName].filter((part) => part !== null).join(' ');
  return {
    beneficiaryId: b.id,
    organizationId: b.organizationId,
    accountId: b.accountId,
    type: b.type,
    status: b.status,
    payable: beneficiary.isPayable(),
    nickname: b.nickname,
    entityType: b.identity.entityType,
    name: legalName ?? businessName ?? (person || null),
    country,
    bank: b.bank && { ...bankDetailsView(b.bank), accountNumber: b.bank.accountNumber },
    crypto: b.crypto && { chainName: b.crypto.chainName, chainDisplayName: b.crypto.chainDisplayName, platform: b.crypto.platform, address: b.crypto.address, asset: b.crypto.asset },
    servicenet: b.servicenet && { ...b.servicenet },
  };
}
