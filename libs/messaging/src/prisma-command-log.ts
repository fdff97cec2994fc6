import { Prisma, type PrismaTransactionHost } from '@pfs/persistence';
import type { SecretBox } from '@pfs/platform';
import { CommandIdReusedError, CommandLog, payloadHash, type LoggedCommand } from './command-log';
import { quoteSchema } from './prisma-event-outbox';

interface LoggedRow {
  payload_hash: string;
  result: { sealed: string };
}

/**
 * The command log in the service's own `command_log` table. Results are sealed (AES-256-GCM):
 * some carry what must not be readable at rest, e.g. the API key of a sandbox sign-up.
 */
export class PrismaCommandLog extends CommandLog {
  private readonly table: string;

  constructor(
    private readonly host: PrismaTransactionHost,
    schema: string,
    private readonly box: SecretBox,
  ) {
    super();
    this.table = `${quoteSchema(schema)}."command_log"`;
  }

  runOnce<R>(command: LoggedCommand, work: () => Promise<R>): Promise<R> {
    const hash = payloadHash(command.payload);
    return this.host.run(async () => {
      const client = this.host.client;
      // Claims the id inside this transaction. A concurrent holder of the same id makes this
      // INSERT wait for its outcome: committed → conflict (read its result below), rolled back → ours.
      const claimed = await client.$executeRaw`INSERT INTO ${Prisma.raw(this.table)} (command_id, command, payload_hash, result)
        VALUES (${command.commandId}, ${command.command}, ${hash}, 'null'::jsonb)
        ON CONFLICT (command_id, command) DO NOTHING`;
      if (claimed === 0) {
        const [row] = await client.$queryRaw<LoggedRow[]>`SELECT payload_hash, result FROM ${Prisma.raw(this.table)}
          WHERE command_id = ${command.commandId} AND command = ${command.command}`;
        if (!row) throw new Error(`command ${command.command} ${command.commandId} vanished from the command log`);
        if (row.payload_hash !== hash) throw new CommandIdReusedError(command.command);
        return JSON.parse(this.box.open(row.result.sealed)) as R;
      }
      const result = await work();
      // undefined is not JSON: stored as null, which is what the reply carries too.
      const sealed = { sealed: this.box.seal(JSON.stringify(result ?? null)) };
      await client.$executeRaw`UPDATE ${Prisma.raw(this.table)} SET result = ${JSON.stringify(sealed)}::jsonb
        WHERE command_id = ${command.commandId} AND command = ${command.command}`;
      return result;
    });
  }

  purge(before: Date): Promise<number> {
    return this.host.root.$executeRaw`DELETE FROM ${Prisma.raw(this.table)} WHERE created_at < ${before}`;
  }
}
