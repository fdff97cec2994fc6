import type { EventContract } from '@pfs/contracts';
import { createAccessTestKit, type AccessTestKit } from '../support/access-test-kit';
import { FixedClock } from '../support/organization-test-kit';

type StandingData = EventContract['organization.standing.updated'];

/**
 * `organization.standing.updated`: the whole standing after each change to any part of it, so
 * the ledger's copy (newest sequence wins) always ends equal to what the organization service
 * answers when asked.
 */
describe('organization.standing.updated (real PostgreSQL)', () => {
  const clock = new FixedClock(new Date('2026-11-26T09:00:00.000Z'));
  let kit: AccessTestKit;

  beforeAll(() => {
    kit = createAccessTestKit({ clock });
  });

  afterAll(async () => {
    await kit.close();
  });

  /** The organization's standing events in the order they were numbered, as `[sequence, data]`. */
  const standingEvents = async (organizationId: string): Promise<Array<[number, StandingData]>> =>
    (
      await kit.prisma.organizationOutboxEvent.findMany({
        where: { type: 'organization.standing.updated', payload: { path: ['data', 'organizationId'], equals: organizationId } },
      })
    )
      .map((row) => row.payload as { sequence: number; data: StandingData })
      .sort((left, right) => left.sequence - right.sequence)
      .map((payload): [number, StandingData] => [payload.sequence, payload.data]);

  const newest = async (organizationId: string) => (await standingEvents(organizationId)).at(-1)?.[1];
  const answered = (organizationId: string) => kit.getOrganizationStanding.execute({ organizationId });
  const withoutTime = ({ updatedAt: _time, ...standing }: StandingData) => standing;

  it('is written when an organization is created, with its creator and verification, and equals the answer to a question', async () => {
    const broker = await kit.rootOrganization('Broker');
    const client = await kit.clientOf(broker);
    expect(await standingEvents(broker)).toEqual([[2, { organizationId: broker, verificationStatus: 'APPROVED', parentOrganizationId: null, parentHoldsActiveLoa: false, referrerOrganizationId: null, updatedAt: clock.now().toISOString() }]]);
    const [[, data]] = await standingEvents(client);
    expect(data).toMatchObject({ verificationStatus: 'PENDING', parentOrganizationId: broker, parentHoldsActiveLoa: false });
    expect(withoutTime(data)).toEqual(await answered(client));
  });

  it('follows every verification change, and only changes', async () => {
    const broker = await kit.rootOrganization('Broker');
    const client = await kit.clientOf(broker);
    const set = (status: 'APPROVED' | 'ON_HOLD', reason: string | null = null) =>
      kit.setVerification.execute({ callerOrganizationId: broker, organizationId: client, status, reason });
    await set('APPROVED');
    await set('APPROVED');
    await set('ON_HOLD', 'Proof of address is unreadable');
    const events = await standingEvents(client);
    expect(events.map(([, data]) => data.verificationStatus)).toEqual(['PENDING', 'APPROVED', 'ON_HOLD']);
    // Numbered with the organization's other events, in the order they became true.
    expect(events.map(([sequence]) => sequence)).toEqual([...events.map(([sequence]) => sequence)].sort((left, right) => left - right));
    expect(withoutTime((await newest(client))!)).toEqual(await answered(client));
  });

  it('follows an LOA the client gives its creator, granted and revoked; an LOA for anyone else changes no standing', async () => {
    const broker = await kit.rootOrganization('Broker');
    const client = await kit.clientOf(broker);
    const stranger = await kit.rootOrganization('Stranger');
    await kit.createAuthorization.execute({ grantorOrganizationId: client, granteeOrganizationId: stranger });
    expect(await standingEvents(client)).toHaveLength(1);

    const { authorization } = await kit.createAuthorization.execute({ grantorOrganizationId: client, granteeOrganizationId: broker });
    expect((await newest(client))?.parentHoldsActiveLoa).toBe(true);
    expect(withoutTime((await newest(client))!)).toEqual(await answered(client));
    // Asking again returns the ACTIVE one and changes nothing.
    await kit.createAuthorization.execute({ grantorOrganizationId: client, granteeOrganizationId: broker });
    expect(await standingEvents(client)).toHaveLength(2);

    await kit.revokeAuthorization.execute({ organizationId: broker, authorizationId: authorization.authorizationId });
    await kit.revokeAuthorization.execute({ organizationId: client, authorizationId: authorization.authorizationId });
    const events = await standingEvents(client);
    expect(events.map(([, data]) => data.parentHoldsActiveLoa)).toEqual([false, true, false]);
    expect(withoutTime((await newest(client))!)).toEqual(await answered(client));
  });
});
