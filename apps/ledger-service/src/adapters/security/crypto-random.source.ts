import { randomBytes } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { RandomSource } from '../../application/ports/random-source';

/** The operating system's CSPRNG: deposit addresses and account numbers must not be guessable. */
@Injectable()
export class CryptoRandomSource extends RandomSource {
  bytes(length: number): Uint8Array {
    return new Uint8Array(randomBytes(length));
  }
}
