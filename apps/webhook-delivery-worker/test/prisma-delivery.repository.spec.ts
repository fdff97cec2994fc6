import { createPrismaClient, PrismaTransactionHost, PrismaUnitOfWork, type PrismaClient } from '@pfs/persistence';
import { statementsDuring, testDatabaseUrl } from '@pfs/testing';
import { PrismaDeliveryRepository } from '../src/adapters/persistence/prisma-delivery.repository';
import type { DeliverySchedule } from '../src/domain/delivery';

/*
 * An attempt's one statement against the real schema: the attempt row, the delivery's next step
 * and the endpoint's run of failures written together, concurrent failures adding up.
 */
describe('PrismaDeliveryRepository.recordAttempt (real PostgreSQL)', () => {
  let prisma: PrismaClient;
  let repository: PrismaDeliveryRepository;
  const run = Date.now().toString(16);
  const endpointId = `ep_rec_${run}`;
  const organizationId = `org_rec_${run}`;
  const at = (seconds: number) => new Date(Date.UTC(2026, 10, 26, 10, 0, seconds));
  const holder = 'worker-spec';
  let messages = 0;

  /** A message due to the endpoint, its delivery claimed by `holder`: the delivery's id. */
  async function claimed(): Promise<string> {
    messages += 1;
    const messageId = `msg_rec_${run}_${messages}`;
    const deliveryId = `dlv_rec_${run}_${messages}`;
    await repository.insertMessage(
      { id: messageId, eventType: 'transaction.status.updated', payload: '{}', createdAt: at(0), deliveries: [{ endpointId, organizationId, dropped: false }] },
      [deliveryId],
    );
    expect(await repository.claim(deliveryId, 0, holder, at(60), at(1))).not.toBeNull();
    return deliveryId;
  }

  const retry: DeliverySchedule = { status: 'PENDING', attemptsMade: 1, retryIndex: 1, nextAttemptAt: at(30) };
  const done: DeliverySchedule = { status: 'SUCCEEDED', attemptsMade: 1, retryIndex: 0, nextAttemptAt: null };

  function attempt(deliveryId: string, second: number, statusCode: number) {
    return {
      id: `att_rec_${run}_${deliveryId}_${second}`,
      deliveryId,
      messageId: deliveryId.replace('dlv_', 'msg_'),
      endpointId,
      organizationId,
      eventType: 'transaction.status.updated',
      attempt: 1,
      attemptedAt: at(second),
      statusCode,
      durationMs: 12,
      error: statusCode >= 300 ? `HTTP ${statusCode}` : null,
      response: null,
    };
  }

  const healthRow = async () =>
    (await prisma.$queryRaw<Array<{ consecutive_failures: number; failing_since: Date | null }>>`
      SELECT consecutive_failures, failing_since FROM "delivery"."endpoint_health" WHERE endpoint_id = ${endpointId}`)[0];

  let unitOfWork: PrismaUnitOfWork;

  beforeAll(() => {
    prisma = createPrismaClient({ databaseUrl: testDatabaseUrl(), poolSize: 8, applicationName: 'delivery-repository-spec' });
    const host = new PrismaTransactionHost(prisma);
    repository = new PrismaDeliveryRepository(host);
    unitOfWork = new PrismaUnitOfWork(host);
  });

  afterAll(async () => {
    await prisma.$executeRaw`DELETE FROM "delivery"."endpoint_health" WHERE endpoint_id = ${endpointId}`;
    await prisma.$disconnect();
  });

  it('a failure writes the attempt, the next step and a run of failures that starts at the attempt; a success ends the run', async () => {
    const first = await claimed();
    const failed = await repository.recordAttempt(attempt(first, 5, 500), retry, holder, { outcome: 'failure', at: at(5) });
    expect(failed).toEqual({ attempt: 1, schedule: retry, health: { consecutiveFailures: 1, failingSince: at(5) } });
    expect(await healthRow()).toEqual({ consecutive_failures: 1, failing_since: at(5) });
    const attempts = await prisma.$queryRaw<Array<{ attempt: number; status_code: number }>>`SELECT attempt, status_code FROM "delivery"."attempts" WHERE delivery_id = ${first}`;
    expect(attempts).toEqual([{ attempt: 1, status_code: 500 }]);

    // The run keeps the time it began.
    const second = await claimed();
    expect((await repository.recordAttempt(attempt(second, 9, 503), retry, holder, { outcome: 'failure', at: at(9) })).health).toEqual({ consecutiveFailures: 2, failingSince: at(5) });

    const third = await claimed();
    const succeeded = await repository.recordAttempt(attempt(third, 12, 204), done, holder, { outcome: 'success', at: at(12) });
    expect(succeeded).toEqual({ attempt: 1, schedule: done, health: { consecutiveFailures: 0, failingSince: null } });
    expect(await healthRow()).toEqual({ consecutive_failures: 0, failing_since: null });
  });

  it('concurrent failures of one endpoint each count once, whether they share a statement or not', async () => {
    const deliveries = await Promise.all(Array.from({ length: 12 }, () => claimed()));
    // Six together (one statement), six one by one (statements of their own) beside them.
    const together = Promise.all(deliveries.slice(0, 6).map((id) => repository.recordAttempt(attempt(id, 20, 500), retry, holder, { outcome: 'failure', at: at(20) })));
    const alone: Array<{ attempt: number; health: { consecutiveFailures: number } }> = [];
    for (const id of deliveries.slice(6)) alone.push(await repository.recordAttempt(attempt(id, 20, 500), retry, holder, { outcome: 'failure', at: at(20) }));
    const runs = [...(await together), ...alone];
    expect(runs.map((recorded) => recorded.attempt)).toEqual(Array.from({ length: 12 }, () => 1));
    // Each answer's run includes its own failure and never more than were made.
    for (const recorded of runs) expect(recorded.health.consecutiveFailures).toBeGreaterThanOrEqual(1);
    expect(Math.max(...runs.map((recorded) => recorded.health.consecutiveFailures))).toBe(12);
    expect(await healthRow()).toEqual({ consecutive_failures: 12, failing_since: at(20) });
  });

  it('claims and records made together share one statement each', async () => {
    const ids = await Promise.all(Array.from({ length: 8 }, async () => {
      messages += 1;
      const deliveryId = `dlv_rec_${run}_${messages}`;
      await repository.insertMessage(
        { id: `msg_rec_${run}_${messages}`, eventType: 'transaction.status.updated', payload: `{"n":${messages}}`, createdAt: at(0), deliveries: [{ endpointId, organizationId, dropped: false }] },
        [deliveryId],
      );
      return deliveryId;
    }));
    let claims: Array<{ id: string; payload: string } | null> = [];
    const claimStatements = await statementsDuring(async () => {
      claims = await Promise.all([...ids.map((id) => repository.claim(id, 0, holder, at(60), at(1))), repository.claim(`dlv_rec_${run}_nothing`, 0, holder, at(60), at(1))]);
    });
    expect(claimStatements).toEqual(['WITH input AS']);
    expect(claims.map((claim) => claim?.id ?? null)).toEqual([...ids, null]);
    expect(claims.map((claim) => claim?.payload)).toEqual([...ids.map((id) => `{"n":${Number(id.split('_').at(-1))}}`), undefined]);

    const recordStatements = await statementsDuring(async () => {
      await Promise.all(ids.map((id) => repository.recordAttempt(attempt(id, 50, 204), done, holder, { outcome: 'success', at: at(50) })));
    });
    expect(recordStatements).toEqual(['WITH input AS']);
    const rows = await prisma.$queryRaw<Array<{ status: string; attempts_made: number; leased_by: string | null }>>`
      SELECT status, attempts_made, leased_by FROM "delivery"."deliveries" WHERE id = ANY(${ids}) ORDER BY id`;
    expect(rows).toEqual(ids.map(() => ({ status: 'SUCCEEDED', attempts_made: 1, leased_by: null })));
  });

  it('two claims of one delivery in one statement: only the holder the row names gets it', async () => {
    messages += 1;
    const deliveryId = `dlv_rec_${run}_${messages}`;
    await repository.insertMessage(
      { id: `msg_rec_${run}_${messages}`, eventType: 'transaction.status.updated', payload: '{}', createdAt: at(0), deliveries: [{ endpointId, organizationId, dropped: false }] },
      [deliveryId],
    );
    const [first, second] = await Promise.all([repository.claim(deliveryId, 0, 'holder-a', at(60), at(1)), repository.claim(deliveryId, 0, 'holder-b', at(60), at(1))]);
    expect([first, second].filter(Boolean)).toHaveLength(1);
    const [row] = await prisma.$queryRaw<Array<{ leased_by: string }>>`SELECT leased_by FROM "delivery"."deliveries" WHERE id = ${deliveryId}`;
    expect(row?.leased_by).toBe(first ? 'holder-a' : 'holder-b');
  });

  it('records made together that one statement cannot hold go in order: two attempts of one delivery, a failure then a success of one endpoint', async () => {
    const [failing, succeeding] = await Promise.all([claimed(), claimed()]);
    const recorded = await Promise.all([
      repository.recordAttempt(attempt(failing, 70, 500), retry, holder, { outcome: 'failure', at: at(70) }),
      repository.recordAttempt(attempt(failing, 71, 500), retry, 'another-holder', { outcome: 'failure', at: at(71) }),
      repository.recordAttempt(attempt(succeeding, 72, 204), done, holder, { outcome: 'success', at: at(72) }),
    ]);
    // Both attempts of the first delivery count, numbered in turn; the success came after the failures and ended the run.
    expect(recorded.map((answer) => answer.attempt)).toEqual([1, 2, 1]);
    expect(recorded[2]?.health).toEqual({ consecutiveFailures: 0, failingSince: null });
    expect(await healthRow()).toEqual({ consecutive_failures: 0, failing_since: null });
  });

  it('an unknown delivery writes nothing, the endpoint’s run included', async () => {
    const before = await healthRow();
    await expect(repository.recordAttempt(attempt(`dlv_rec_${run}_missing`, 30, 500), retry, holder, { outcome: 'failure', at: at(30) })).rejects.toThrow('does not exist');
    expect(await healthRow()).toEqual(before);
  });

  it('recordMessage, in a write-only unit, writes the message and its deliveries in one statement; a repeat writes nothing', async () => {
    const messageId = `msg_rec_${run}_recorded`;
    const message = {
      id: messageId,
      eventType: 'transaction.status.updated',
      payload: '{}',
      createdAt: at(40),
      deliveries: [
        { endpointId, organizationId, dropped: false },
        { endpointId: `${endpointId}_off`, organizationId, dropped: true },
      ],
    };
    let due: unknown;
    const sent = await statementsDuring(async () => {
      due = await unitOfWork.write(() => repository.recordMessage(message, [`dlv_rec_${run}_r1`, `dlv_rec_${run}_r2`]));
    });
    expect(sent).toEqual(['WITH w0_message AS']);
    expect(due).toEqual([{ deliveryId: `dlv_rec_${run}_r1`, endpointId, attemptsMade: 0, dueAt: at(40) }]);
    const rows = () => prisma.$queryRaw<Array<{ id: string; status: string }>>`SELECT id, status FROM "delivery"."deliveries" WHERE message_id = ${messageId} ORDER BY id`;
    expect(await rows()).toEqual([
      { id: `dlv_rec_${run}_r1`, status: 'PENDING' },
      { id: `dlv_rec_${run}_r2`, status: 'DROPPED' },
    ]);
    await expect(unitOfWork.write(() => repository.recordMessage(message, [`dlv_rec_${run}_r3`, `dlv_rec_${run}_r4`]))).rejects.toThrow();
    expect(await rows()).toHaveLength(2);
  });
});
