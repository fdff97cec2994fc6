import type { IdKind } from '@pfs/contracts';

/** Ids come through a port, so tests can pin them. */
export abstract class IdGenerator {
  abstract next(kind: IdKind): string;
}
