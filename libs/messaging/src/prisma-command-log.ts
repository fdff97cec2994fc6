import { isUniqueViolation, Prisma, type DeferredWrite, type PrismaClient, type PrismaTransactionHost, type PrismaTx } from '@pfs/persistence';
import { callBatcher, type SecretBox } from '@pfs/platform';
import { CommandIdReusedError, CommandLog, payloadHash, type LoggedCommand } from './command-log';
import { quoteSchema } from './prisma-event-outbox';

interface LoggedRow {
  payload_hash: string;
  result: { sealed: string } | null;
}

/** The claim met a committed entry of the same id: its stored result is the answer. */
class AlreadyLogged {
  constructor(readonly result: unknown) {}
}

/** A write-only unit's claim met an entry of the same id, committed by now: read its result. */
class ClaimTaken extends Error {
  constructor() {
    super('the command id was claimed by another delivery');
  }
}

/**
 * The command log in the service's own `command_log` table. Results are sealed (AES-256-GCM):
 * some carry what must not be readable at rest, e.g. the API key of a sandbox sign-up.
 *
 * The id is claimed by the first statement of the use case's own transaction and the result
 * stored by its last, not in a transaction wrapped around the whole use case: the questions a
 * use case asks other services before it opens its transaction are then asked while this
 * service holds no pooled connection.
 */
export class PrismaCommandLog extends CommandLog {
  private readonly table: string;
  // Every command reads its id first: the commands that arrive together share that statement.
  private readonly firstReads = callBatcher<LoggedCommand, LoggedRow | null>((commands) => this.readLoggedOn(this.host.root, commands), { maxInFlight: 2, maxBatchSize: 64 });

  constructor(
    private readonly host: PrismaTransactionHost,
    schema: string,
    private readonly box: SecretBox,
  ) {
    super();
    this.table = `${quoteSchema(schema)}."command_log"`;
  }

  async runOnce<R>(command: LoggedCommand, work: () => Promise<R>): Promise<R> {
    const hash = payloadHash(command.payload);
    // A repeat of a committed command is answered from the log before the use case asks anyone
    // anything: a refusal that would be true now (a beneficiary blocked since) must not replace the
    // result the first delivery was given. A command whose every success writes its claim is
    // answered by the claim instead, and from the log only if its work fails (below).
    const readFirst = command.readFirst !== false;
    const stored = readFirst ? await this.storedResult(this.host.root, command, hash) : undefined;
    if (stored) return stored.value as R;
    let logged: { value: unknown } | undefined;
    let value: R;
    try {
      value = await this.host.withFirstTransaction(
        {
          opened: async (client) => {
            // A concurrent holder of the same id makes this INSERT wait for its outcome:
            // committed → conflict (its result is the answer), rolled back → ours.
            const claimed = await client.$executeRaw`INSERT INTO ${Prisma.raw(this.table)} (command_id, command, payload_hash, result)
              VALUES (${command.commandId}, ${command.command}, ${hash}, 'null'::jsonb)
              ON CONFLICT (command_id, command) DO NOTHING`;
            if (claimed === 0) {
              const winner = await this.storedResult(client, command, hash);
              if (!winner) throw new Error(`command ${command.command} ${command.commandId} vanished from the command log`);
              throw new AlreadyLogged(winner.value);
            }
          },
          committing: (result) => {
            logged = { value: result };
            return this.resultWrite(command, result);
          },
          claimedWith: (result) => {
            logged = { value: result };
            return this.claimWrite(command, hash, result);
          },
          refused: () => {
            logged = undefined;
          },
        },
        work,
      );
    } catch (error) {
      if (error instanceof AlreadyLogged) return error.result as R;
      if (error instanceof ClaimTaken) {
        const winner = await this.storedResult(this.host.root, command, hash);
        if (!winner) throw new Error(`command ${command.command} ${command.commandId} vanished from the command log`, { cause: error });
        return winner.value as R;
      }
      if (!readFirst) {
        // Not read first: a repeat whose work fails now (a refusal true only since, a service
        // down) is answered what the first delivery was, if that one committed.
        const first = await this.storedResult(this.host.root, command, hash);
        if (first) return first.value as R;
      }
      throw error;
    }
    if (logged && logged.value !== value) {
      // The reply and what a repeat would be answered would differ: a use case's bug, loud in tests.
      throw new Error(`${command.command} returned a value other than the one its transaction returned and the command log stored`);
    }
    return value;
  }

  /** The result, stored in the row the transaction's first statement claimed. */
  private resultWrite(command: LoggedCommand, result: unknown): DeferredWrite {
    const sealed = this.sealed(result);
    return {
      ctes: (prefix) => [
        Prisma.sql`${Prisma.raw(prefix)} AS (UPDATE ${Prisma.raw(this.table)} SET result = ${sealed}::jsonb
          WHERE command_id = ${command.commandId} AND command = ${command.command})`,
      ],
    };
  }

  /**
   * Claim and result in one row, for a write-only unit. No ON CONFLICT: a holder of the same id
   * makes the INSERT wait for its outcome, and once it has committed the whole statement fails,
   * writing nothing; its stored result is then the answer.
   */
  private claimWrite(command: LoggedCommand, hash: string, result: unknown): DeferredWrite {
    const sealed = this.sealed(result);
    return {
      ctes: (prefix) => [
        Prisma.sql`${Prisma.raw(prefix)} AS (INSERT INTO ${Prisma.raw(this.table)} (command_id, command, payload_hash, result)
          VALUES (${command.commandId}, ${command.command}, ${hash}, ${sealed}::jsonb))`,
      ],
      refusal: (error) => (isUniqueViolation(error, 'command_log_pkey') ? new ClaimTaken() : undefined),
    };
  }

  private sealed(result: unknown): string {
    // undefined is not JSON: stored as null, which is what the reply carries too.
    return JSON.stringify({ sealed: this.box.seal(JSON.stringify(result ?? null)) });
  }

  purge(before: Date): Promise<number> {
    return this.host.root.$executeRaw`DELETE FROM ${Prisma.raw(this.table)} WHERE created_at < ${before}`;
  }

  private async storedResult(client: PrismaClient | PrismaTx, command: LoggedCommand, hash: string): Promise<{ value: unknown } | undefined> {
    // Outside any transaction, on the driver (text and jsonb read the same), batched; inside, on the transaction.
    const row = client === this.host.root ? await this.firstReads(command) : (await this.readLoggedOn(client, [command]))[0];
    if (!row) return undefined;
    if (row.payload_hash !== hash) throw new CommandIdReusedError(command.command);
    // Outside a transaction a row can be seen only once committed, with its result stored.
    if (!row.result) return undefined;
    return { value: JSON.parse(this.box.open(row.result.sealed)) };
  }

  /** The entries of `commands`, in their order (null where there is none), in one statement. */
  private async readLoggedOn(client: PrismaClient | PrismaTx, commands: readonly LoggedCommand[]): Promise<Array<LoggedRow | null>> {
    const rows = await this.host.rowsOn<LoggedRow & { command_id: string; command: string }>(
      client,
      Prisma.sql`SELECT command_id, command, payload_hash, result FROM ${Prisma.raw(this.table)}
        WHERE (command_id, command) IN (SELECT * FROM unnest(${commands.map((command) => command.commandId)}::text[], ${commands.map((command) => command.command)}::text[]))`,
    );
    const byKey = new Map(rows.map((row) => [`${row.command} ${row.command_id}`, row]));
    return commands.map((command) => byKey.get(`${command.command} ${command.commandId}`) ?? null);
  }
}
