import { Inject, Injectable } from '@nestjs/common';
import type { SecretBox } from '@pfs/platform';
import { SecretSealer } from '../../application/ports/secret-sealer';
import { WEBHOOK_SECRET_BOX } from './prisma-webhook-endpoint.repository';

/** Seals with the same box (WEBHOOK_SECRET_KEY) as the secrets at rest; the worker opens with it. */
@Injectable()
export class SecretBoxSealer extends SecretSealer {
  constructor(@Inject(WEBHOOK_SECRET_BOX) private readonly box: SecretBox) {
    super();
  }

  seal(secret: string): string {
    return this.box.seal(secret);
  }
}
