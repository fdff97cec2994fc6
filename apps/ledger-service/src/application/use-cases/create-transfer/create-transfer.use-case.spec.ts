import { DomainError, type PayableBeneficiaryView } from '@pfs/contracts';
import { InMemoryUnitOfWork } from '@pfs/test-doubles';
import { ledgerInMemory, type LedgerInMemory } from '../../../../test/support/in-memory/ledger-in-memory.kit';
import { Account } from '../../../domain/account';
import { BeneficiaryDirectory } from '../../ports/beneficiary-directory';
import { ServicenetDirectory } from '../../ports/servicenet-directory';
import { CreateTransferUseCase } from './create-transfer.use-case';
import type { CreateTransferCommand } from './create-transfer.command';

/** Servicenet as the test sets it. */
class FixedServicenet extends ServicenetDirectory {
  readonly enabled = new Set<string>();
  async isEnabled(organizationId: string): Promise<boolean> {
    return this.enabled.has(organizationId);
  }
}

/** The beneficiary service's answers for SERVICENET (and other) beneficiaries, as the test sets them. */
class FixedBeneficiaries extends BeneficiaryDirectory {
  readonly rows = new Map<string, PayableBeneficiaryView>();
  add(view: Partial<PayableBeneficiaryView> & { beneficiaryId: string; organizationId: string; accountId: string }): string {
    this.rows.set(view.beneficiaryId, {
      type: 'SERVICENET',
      status: 'ACTIVE',
      payable: true,
      nickname: 'Payee',
      entityType: null,
      name: null,
      country: null,
      bank: null,
      crypto: null,
      servicenet: null,
      ...view,
    });
    return view.beneficiaryId;
  }
  async payable(organizationId: string, beneficiaryId: string): Promise<PayableBeneficiaryView> {
    const row = this.rows.get(beneficiaryId);
    if (row?.organizationId !== organizationId) throw new DomainError('beneficiary_not_found', `No beneficiary ${beneficiaryId} was found.`);
    return row;
  }
}

describe('CreateTransferUseCase (in memory)', () => {
  let ledger: LedgerInMemory;
  let servicenet: FixedServicenet;
  let beneficiaries: FixedBeneficiaries;
  let transfer: CreateTransferUseCase;
  let sender: { organizationId: string; accountId: string };
  let receiver: { organizationId: string; accountId: string };
  let beneficiaryId: string;

  beforeEach(async () => {
    ledger = ledgerInMemory();
    servicenet = new FixedServicenet();
    beneficiaries = new FixedBeneficiaries();
    // Rolls back like the database, so a refused transfer is seen to write nothing.
    const unitOfWork = new InMemoryUnitOfWork([ledger.transactions, ledger.journal, { snapshot: () => rewind(ledger.outbox.events) }]);
    transfer = new CreateTransferUseCase(unitOfWork, ledger.accounts, ledger.transactions, ledger.journal, ledger.directory, beneficiaries, servicenet, ledger.outbox, ledger.ids, ledger.clock);
    sender = await ledger.organization({ assets: ['USDC'] });
    receiver = await ledger.organization({ parentOrganizationId: 'org_broker' });
    await ledger.creditFaucet.execute({ ...sender, asset: 'USDC', amount: '100', chainName: 'ETHEREUM_SEPOLIA' });
    servicenet.enabled.add(sender.organizationId).add(receiver.organizationId);
    beneficiaryId = beneficiaries.add({
      beneficiaryId: 'bene_1',
      organizationId: sender.organizationId,
      accountId: sender.accountId,
      servicenet: { organizationId: receiver.organizationId, handle: 'receiver', organizationName: 'Receiver Ltd' },
    });
  });

  const command = (overrides: Partial<CreateTransferCommand> = {}): CreateTransferCommand => ({
    organizationId: sender.organizationId,
    accountId: sender.accountId,
    beneficiaryId,
    asset: 'USDC',
    amount: '40.5',
    reference: 'Invoice 7',
    ...overrides,
  });

  /** Everything a refused transfer must leave as it was. */
  function written() {
    return {
      transactions: ledger.transactions.transactions.size,
      entries: ledger.journal.entries.length,
      events: ledger.outbox.events.length,
      sender: ledger.journal.balanceOf(sender.accountId, 'USDC'),
      receiver: ledger.journal.balanceOf(receiver.accountId, 'USDC'),
    };
  }

  it('moves the amount to the receiver’s primary account in one entry: two COMPLETED INTERNAL_TRANSFERs, an event per side', async () => {
    const entries = ledger.journal.entries.length;
    const events = ledger.outbox.events.length;
    ledger.clock.set('2026-11-23T09:00:00.000Z');
    const sent = await transfer.execute(command());
    expect(sent).toEqual({
      object: 'transaction',
      transactionId: expect.stringMatching(/^txn_/),
      type: 'INTERNAL_TRANSFER',
      status: 'COMPLETED',
      accountId: sender.accountId,
      amount: '40.500000',
      asset: 'USDC',
      chainName: null,
      beneficiaryId,
      quoteId: null,
      fee: null,
      feeAsset: null,
      counterpartyOrganizationId: receiver.organizationId,
      reference: 'Invoice 7',
      failureReason: null,
      destination: null,
      createdAt: '2026-11-23T09:00:00.000Z',
      updatedAt: '2026-11-23T09:00:00.000Z',
    });
    expect(ledger.journal.balanceOf(sender.accountId, 'USDC')).toBe('59.5');
    expect(ledger.journal.balanceOf(receiver.accountId, 'USDC')).toBe('40.5');
    expect(ledger.journal.entries.length).toBe(entries + 1);
    expect(ledger.journal.booksByAsset()).toEqual({ USDC: '0' });

    const received = [...ledger.transactions.transactions.values()].find((t) => t.organizationId === receiver.organizationId);
    expect(received?.props).toMatchObject({ type: 'INTERNAL_TRANSFER', status: 'COMPLETED', role: 'RECEIVER', accountId: receiver.accountId, beneficiaryId: null, counterpartyOrganizationId: sender.organizationId, reference: 'Invoice 7' });

    const fresh = ledger.outbox.events.slice(events);
    expect(fresh.map((event) => [event.type, event.data, event.audience])).toEqual([
      [
        'transaction.status.updated',
        { object: 'transaction', transaction_id: sent.transactionId, transaction_type: 'INTERNAL_TRANSFER', status: 'COMPLETED', previous_status: 'EXPECTED', account_id: sender.accountId, organization_id: sender.organizationId, role: 'SENDER', occurred_at: '2026-11-23T09:00:00.000Z' },
        { organizationId: sender.organizationId, parentOrganizationId: null, parentHoldsActiveLoa: false },
      ],
      [
        'transaction.status.updated',
        { object: 'transaction', transaction_id: received?.id, transaction_type: 'INTERNAL_TRANSFER', status: 'COMPLETED', previous_status: 'EXPECTED', account_id: receiver.accountId, organization_id: receiver.organizationId, role: 'RECEIVER', occurred_at: '2026-11-23T09:00:00.000Z' },
        { organizationId: receiver.organizationId, parentOrganizationId: 'org_broker', parentHoldsActiveLoa: false },
      ],
    ]);
    // Neither side's event names the other's account.
    expect(JSON.stringify(fresh[0]?.data)).not.toContain(receiver.accountId);
    expect(JSON.stringify(fresh[1]?.data)).not.toContain(sender.accountId);
  });

  it('shows each side its own transaction on its statement: the receiver’s line opens as the receiver’s RECEIVER transaction', async () => {
    const sent = await transfer.execute(command());
    const receiverLines = (await ledger.listAccountEntries.execute({ organizationId: receiver.organizationId, accountId: receiver.accountId, page: { limit: 100, cursor: null } })).data;
    expect(receiverLines.map((line) => line.amount)).toEqual(['40.500000']);
    const [line] = receiverLines;
    expect(line?.transactionId).not.toBe(sent.transactionId);
    await expect(ledger.getTransaction.execute({ organizationId: receiver.organizationId, transactionId: line!.transactionId })).resolves.toMatchObject({
      type: 'INTERNAL_TRANSFER',
      accountId: receiver.accountId,
      counterpartyOrganizationId: sender.organizationId,
    });
    const senderLines = (await ledger.listAccountEntries.execute({ organizationId: sender.organizationId, accountId: sender.accountId, page: { limit: 100, cursor: null } })).data;
    expect(senderLines[0]).toMatchObject({ transactionId: sent.transactionId, amount: '-40.500000' });
  });

  it('refuses a short balance with insufficient_funds and writes nothing', async () => {
    const before = written();
    await expect(transfer.execute(command({ amount: '100.000001' }))).rejects.toMatchObject({ code: 'insufficient_funds' });
    expect(written()).toEqual(before);
  });

  it('refuses a sender off servicenet, and a receiver that disabled servicenet since, with servicenet_not_enabled', async () => {
    const before = written();
    servicenet.enabled.delete(receiver.organizationId);
    await expect(transfer.execute(command())).rejects.toMatchObject({ code: 'servicenet_not_enabled', message: expect.not.stringContaining(receiver.organizationId) });
    servicenet.enabled.delete(sender.organizationId);
    await expect(transfer.execute(command())).rejects.toMatchObject({ code: 'servicenet_not_enabled' });
    expect(written()).toEqual(before);
  });

  it('refuses a receiver whose primary account is not ACTIVE as unreachable (servicenet_not_enabled), naming none of its ids', async () => {
    const index = ledger.accounts.accounts.findIndex((account) => account.id === receiver.accountId);
    const primary = ledger.accounts.accounts[index] as Account;
    ledger.accounts.accounts[index] = new Account(primary.id, primary.organizationId, primary.name, null, true, 'SUSPENDED', [], [], primary.createdAt, primary.updatedAt);
    const refusal = transfer.execute(command());
    await expect(refusal).rejects.toMatchObject({ code: 'servicenet_not_enabled' });
    await expect(refusal).rejects.toMatchObject({ message: expect.not.stringContaining(receiver.accountId) });
  });

  it('refuses a BLOCKED beneficiary with beneficiary_blocked, an ARCHIVED one and a non-SERVICENET one with invalid_request', async () => {
    beneficiaries.add({ beneficiaryId: 'bene_blocked', organizationId: sender.organizationId, accountId: sender.accountId, status: 'BLOCKED', payable: false, servicenet: { organizationId: receiver.organizationId, handle: 'r', organizationName: 'R' } });
    beneficiaries.add({ beneficiaryId: 'bene_archived', organizationId: sender.organizationId, accountId: sender.accountId, status: 'ARCHIVED', payable: false, servicenet: { organizationId: receiver.organizationId, handle: 'r', organizationName: 'R' } });
    beneficiaries.add({ beneficiaryId: 'bene_crypto', organizationId: sender.organizationId, accountId: sender.accountId, type: 'CRYPTO' });
    await expect(transfer.execute(command({ beneficiaryId: 'bene_blocked' }))).rejects.toMatchObject({ code: 'beneficiary_blocked' });
    await expect(transfer.execute(command({ beneficiaryId: 'bene_archived' }))).rejects.toMatchObject({ code: 'invalid_request', message: expect.stringMatching(/^beneficiaryId: /) });
    await expect(transfer.execute(command({ beneficiaryId: 'bene_crypto' }))).rejects.toMatchObject({ code: 'invalid_request', message: expect.stringMatching(/^beneficiaryId: .*SERVICENET/) });
  });

  it('answers beneficiary_not_found for another organization’s beneficiary, account_not_found for another’s account', async () => {
    await expect(transfer.execute(command({ organizationId: receiver.organizationId, accountId: receiver.accountId }))).rejects.toMatchObject({ code: 'beneficiary_not_found' });
    beneficiaries.add({ beneficiaryId: 'bene_wrong_account', organizationId: sender.organizationId, accountId: receiver.accountId, servicenet: { organizationId: receiver.organizationId, handle: 'r', organizationName: 'R' } });
    await expect(transfer.execute(command({ beneficiaryId: 'bene_wrong_account', accountId: receiver.accountId }))).rejects.toMatchObject({ code: 'account_not_found' });
  });

  it('refuses a beneficiary of another of the sender’s accounts, a bad amount or asset with invalid_request naming the field', async () => {
    const other = await ledger.openAccount.execute({ organizationId: sender.organizationId, name: 'Ops', description: null });
    await expect(transfer.execute(command({ accountId: other.accountId }))).rejects.toMatchObject({ code: 'invalid_request', message: expect.stringMatching(/^beneficiaryId: /) });
    await expect(transfer.execute(command({ amount: '0' }))).rejects.toMatchObject({ code: 'invalid_request', message: expect.stringMatching(/^amount: /) });
    await expect(transfer.execute(command({ amount: '1.0000001' }))).rejects.toMatchObject({ code: 'invalid_request', message: expect.stringMatching(/^amount: /) });
    await expect(transfer.execute(command({ asset: 'DOGE' }))).rejects.toMatchObject({ code: 'invalid_request', message: expect.stringMatching(/^asset: /) });
  });

  it('refuses a sender not APPROVED with verification_required', async () => {
    ledger.directory.set({ organizationId: sender.organizationId, verificationStatus: 'ON_HOLD' });
    await expect(transfer.execute(command())).rejects.toMatchObject({ code: 'verification_required' });
  });

  it('leaves an internal transfer final: a sandbox move is invalid_request', async () => {
    const sent = await transfer.execute(command());
    await expect(ledger.advanceTransaction.execute({ organizationId: sender.organizationId, transactionId: sent.transactionId, action: 'refund' })).rejects.toMatchObject({ code: 'invalid_request' });
  });
});

/** Undoes appends to `list` made after this call. */
function rewind(list: unknown[]): () => void {
  const length = list.length;
  return () => {
    list.splice(length);
  };
}
