import { Injectable } from '@nestjs/common';
import { findAsset, type ChainPlatform, type ServiceEnvironment } from '@pfs/contracts';
import { PayoutRail, type PayoutInstruction, type RailVerdict } from '../../application/ports/payout-rail';
import { ChainSendFailedError } from '../../domain/ledger-errors';
import type { Transaction } from '../../domain/transaction';

/**
 * The addresses a sandbox chain refuses to send to, per platform: each chain family's zero
 * address and its well-known burn address. Documented magic values, so partners can rehearse
 * `chain_send_failed`. EVM is compared without case (EIP-55 only changes letters' case).
 */
export const SANDBOX_REFUSED_ADDRESSES: Readonly<Record<ChainPlatform, readonly string[]>> = {
  EVM: ['0x0000000000000000000000000000000000000000', '0x000000000000000000000000000000000000dEaD'],
  // The system program (32 zero bytes) and the incinerator.
  SOLANA: ['11111111111111111111111111111111', '1nc1nerator11111111111111111111111111111111'],
  // 0x41 followed by 20 zero bytes.
  TRON: ['T9yD14Nj9j7xAB4dbGeiX9h8unkKHxuWwb'],
};

export function isSandboxRefusedAddress(platform: ChainPlatform, address: string): boolean {
  const refused = SANDBOX_REFUSED_ADDRESSES[platform];
  return platform === 'EVM' ? refused.some((burn) => burn.toLowerCase() === address.toLowerCase()) : refused.includes(address);
}

/** The sandbox rails move payouts through the sandbox's own settlement and drive routes, which production has not. */
const SANDBOX_ONLY: readonly ServiceEnvironment[] = ['sandbox'];

/** The fractional digits a sandbox bank declines after locking, like a card sandbox's magic amounts. */
export const SANDBOX_DECLINED_CENTS = '13';

/** Whether a fiat amount, written with its asset's decimals, ends in `.13`. */
export function isSandboxDeclinedAmount(payout: Transaction): boolean {
  const { amount, asset } = payout.props;
  const scale = findAsset(asset)?.scale ?? 2;
  return amount.toFixed(scale).endsWith(`.${SANDBOX_DECLINED_CENTS}`);
}

/**
 * The sandbox chains: a send to a chain's zero or burn address is refused at once with
 * `chain_send_failed` (nothing is held); every other send is taken and settles. The chain sends
 * to the payout's stored destination: were it ever a refused address, the payout would be
 * declined, not sent.
 */
@Injectable()
export class SandboxCryptoRail extends PayoutRail {
  readonly rail = 'CRYPTO' as const;
  readonly adapter = 'sandbox-chains';
  readonly environments = SANDBOX_ONLY;

  async submit(instruction: PayoutInstruction): Promise<void> {
    const crypto = instruction.destination.crypto;
    if (crypto && isSandboxRefusedAddress(crypto.platform, crypto.address)) {
      throw new ChainSendFailedError(crypto.chainName, 'the destination is the chain’s zero or burn address (the sandbox refuses it, as a chain node would refuse the send).');
    }
  }

  async verdict(payout: Transaction): Promise<RailVerdict> {
    const crypto = payout.props.destination?.crypto;
    return crypto && isSandboxRefusedAddress(crypto.platform, crypto.address)
      ? { settles: false, reason: `Declined by ${crypto.chainName}: the destination is the chain’s zero or burn address.` }
      : { settles: true };
  }
}

/**
 * The sandbox bank network: takes every payout; once LOCKED, an amount ending in `.13` (e.g.
 * 25.13 USD) is declined, anything else settles.
 */
@Injectable()
export class SandboxFiatRail extends PayoutRail {
  readonly rail = 'FIAT' as const;
  readonly adapter = 'sandbox-bank';
  readonly environments = SANDBOX_ONLY;

  async submit(): Promise<void> {
    // The sandbox bank takes every instruction; its refusal comes after locking (see verdict).
  }

  async verdict(payout: Transaction): Promise<RailVerdict> {
    return isSandboxDeclinedAmount(payout)
      ? { settles: false, reason: `Declined by the beneficiary's bank (sandbox: amounts ending in .${SANDBOX_DECLINED_CENTS} are declined).` }
      : { settles: true };
  }
}
