import { Injectable } from '@nestjs/common';
import { newId, type IdKind } from '@pfs/contracts';
import { IdGenerator } from '../../application/ports/id-generator';

@Injectable()
export class RandomIdGenerator extends IdGenerator {
  next(kind: IdKind): string {
    return newId(kind);
  }
}
