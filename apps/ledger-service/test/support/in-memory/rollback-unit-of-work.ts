import { UnitOfWork } from '@pfs/contracts';

/** Something whose writes a unit of work can undo: `snapshot()` answers the function that restores it. */
export interface Rollbackable {
  snapshot(): () => void;
}

/**
 * The database's all-or-nothing in memory: when the work throws, what the participants held
 * before it is restored, so "refused, nothing written" is tested as the database would have it.
 */
export class RollbackUnitOfWork extends UnitOfWork {
  private depth = 0;

  constructor(private readonly participants: readonly Rollbackable[]) {
    super();
  }

  async run<T>(work: () => Promise<T>): Promise<T> {
    // Nested units join the outer one, as PrismaTransactionHost does.
    if (this.depth > 0) return work();
    const restore = this.participants.map((participant) => participant.snapshot());
    this.depth += 1;
    try {
      return await work();
    } catch (error) {
      for (const undo of restore) undo();
      throw error;
    } finally {
      this.depth -= 1;
    }
  }
}
