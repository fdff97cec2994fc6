import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import type { INestApplicationContext } from '@nestjs/common';
import { isDomainError } from '@pfs/contracts';
import { OutboxRelay } from '@pfs/messaging';
import { PrismaClient } from '@pfs/persistence';
import { AssignSubOrgTierUseCase } from '../../application/use-cases/assign-sub-org-tier/assign-sub-org-tier.use-case';
import { CreateApiKeyUseCase } from '../../application/use-cases/create-api-key/create-api-key.use-case';
import { PrimaryAccountNotOpenedError, type CreateRootOrganizationResult } from '../../application/use-cases/create-root-organization/create-root-organization.command';
import { CreateRootOrganizationUseCase } from '../../application/use-cases/create-root-organization/create-root-organization.use-case';
import { ResumeReferralsUseCase } from '../../application/use-cases/resume-referrals/resume-referrals.use-case';
import { RevokeApiKeyUseCase } from '../../application/use-cases/revoke-api-key/revoke-api-key.use-case';
import { SuspendReferralsUseCase } from '../../application/use-cases/suspend-referrals/suspend-referrals.use-case';
import { parseCliArguments, USAGE, UsageError, type CliInvocation } from './cli-arguments';
import { runDeadLetterCommand } from './dead-letter-commands';
import { OperatorCliModule } from './operator-cli.module';

export interface CliOutput {
  /** Results only: with --json, exactly one JSON document. */
  stdout(text: string): void;
  /** Everything else: progress, errors, usage. Never a key. */
  stderr(text: string): void;
}

export const EXIT_OK = 0;
export const EXIT_FAILED = 1;
export const EXIT_USAGE = 2;

/** Runs one operator command and answers its exit code. */
export async function runOperatorCli(argv: readonly string[], out: CliOutput): Promise<number> {
  let invocation: CliInvocation;
  try {
    invocation = parseCliArguments(argv);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    out.stderr(`error: ${error.message}\n\n${USAGE}\n`);
    return EXIT_USAGE;
  }
  if (invocation.command === 'help') {
    out.stdout(`${USAGE}\n`);
    return EXIT_OK;
  }
  if (invocation.command === 'dead-letters:list' || invocation.command === 'dead-letters:replay') {
    // Redis only: no Nest context, no database.
    try {
      const result = await runDeadLetterCommand(invocation);
      out.stdout(result.stdout);
      if (result.failed === undefined) return EXIT_OK;
      out.stderr(`error: ${result.failed}\n`);
      return EXIT_FAILED;
    } catch (error) {
      out.stderr(`error: ${(error as Error).message ?? String(error)}\n`);
      return EXIT_FAILED;
    }
  }

  let app: INestApplicationContext | undefined;
  try {
    // Nest's own logger would write to stdout; failures reach the catch below instead.
    app = await NestFactory.createApplicationContext(OperatorCliModule, { logger: false, abortOnError: false });
    // The CLI's events go out as the service's do, handed to the relay after their commit (its
    // poll does not run here); stopping the relay waits for those hand-offs. org:create also asks
    // the running ledger (over Redis) to open the primary account before it prints.
    try {
      await execute(app, invocation, out);
    } finally {
      await app.get(OutboxRelay).stop();
    }
    return EXIT_OK;
  } catch (error) {
    if (isDomainError(error)) {
      out.stderr(`error: ${error.message} (${error.code})\n`);
    } else {
      out.stderr(`error: ${(error as Error).message ?? String(error)}\n`);
    }
    return EXIT_FAILED;
  } finally {
    if (app) await close(app);
  }
}

type DatabaseInvocation = Exclude<CliInvocation, { command: 'help' | 'dead-letters:list' | 'dead-letters:replay' }>;

async function execute(app: INestApplicationContext, invocation: DatabaseInvocation, out: CliOutput): Promise<void> {
  switch (invocation.command) {
    case 'org:create': {
      try {
        const created = await app.get(CreateRootOrganizationUseCase).execute({ name: invocation.name, approved: invocation.approved });
        printCreatedOrganization(invocation.name, invocation.json, created, out);
      } catch (error) {
        if (!(error instanceof PrimaryAccountNotOpenedError)) throw error;
        // Stored with its key, which exists only here: print it, and say why this still failed.
        printCreatedOrganization(invocation.name, invocation.json, error.created, out);
        throw new Error(
          `${error.message}. The organization and its key above are stored; the ledger opens the account from organization.created once it is running.`,
          { cause: error },
        );
      }
      return;
    }
    case 'key:create': {
      const created = await app.get(CreateApiKeyUseCase).execute({ organizationId: invocation.organizationId });
      if (invocation.json) {
        out.stdout(`${JSON.stringify({ keyId: created.keyId, apiKey: created.apiKey })}\n`);
        return;
      }
      out.stdout(
        [
          `Created an API key for ${invocation.organizationId}`,
          `  keyId   ${created.keyId}`,
          `  apiKey  ${created.apiKey}`,
          '',
          'The API key is shown only this once: store it now.',
          '',
        ].join('\n'),
      );
      return;
    }
    case 'key:revoke': {
      const revoked = await app.get(RevokeApiKeyUseCase).execute({ keyId: invocation.keyId });
      out.stdout(
        invocation.json
          ? `${JSON.stringify(revoked)}\n`
          : `Revoked API key ${revoked.keyId} of ${revoked.organizationId} (at ${revoked.revokedAt}).\n`,
      );
      return;
    }
    case 'tier:assign': {
      const assigned = await app.get(AssignSubOrgTierUseCase).execute({ callerOrganizationId: null, organizationId: invocation.organizationId, tierKey: invocation.tierKey });
      out.stdout(
        invocation.json
          ? `${JSON.stringify(assigned)}\n`
          : assigned.tier
            ? `${assigned.organizationId} is on tier ${assigned.tier.key} (spread ${assigned.tier.spreadBps} bps, referrer share ${assigned.tier.referrerShareBps} bps) from now on.\n`
            : `${assigned.organizationId} has no tier from now on (the platform default applies).\n`,
      );
      return;
    }
    case 'referrals:suspend':
    case 'referrals:resume': {
      const command = { organizationId: invocation.organizationId };
      const program =
        invocation.command === 'referrals:suspend'
          ? await app.get(SuspendReferralsUseCase).execute(command)
          : await app.get(ResumeReferralsUseCase).execute(command);
      out.stdout(
        invocation.json
          ? `${JSON.stringify(program)}\n`
          : program.suspendedAt
            ? `Referrals of ${program.organizationId} are suspended (since ${program.suspendedAt}).\n`
            : `Referrals of ${program.organizationId} are not suspended.\n`,
      );
      return;
    }
  }
}

function printCreatedOrganization(name: string, json: boolean, created: CreateRootOrganizationResult, out: CliOutput): void {
  if (json) {
    out.stdout(`${JSON.stringify({ organizationId: created.organizationId, accountId: created.accountId, apiKey: created.apiKey })}\n`);
    return;
  }
  out.stdout(
    [
      `Created organization "${name}"`,
      `  organizationId      ${created.organizationId}`,
      `  verificationStatus  ${created.verificationStatus}`,
      `  primary accountId   ${created.accountId}`,
      `  keyId               ${created.keyId}`,
      `  apiKey              ${created.apiKey}`,
      '',
      'The API key is shown only this once: store it now.',
      '',
    ].join('\n'),
  );
}

/** Closes Nest, then the database pool that Nest does not own, so the process can exit. */
async function close(app: INestApplicationContext): Promise<void> {
  const prisma = app.get(PrismaClient);
  await app.close();
  await prisma.$disconnect();
}
