import { Inject, Injectable } from '@nestjs/common';
import type { CursorPosition } from '@pfs/contracts';
import { batchedReads, newestFirstPage, Prisma, PrismaTransactionHost } from '@pfs/persistence';
import type { SecretBox } from '@pfs/platform';
import { WebhookEndpointRepository } from '../../application/ports/webhook-endpoint.repository';
import type { EndpointSubscription } from '../../domain/fan-out';
import { WebhookEndpoint } from '../../domain/webhook-endpoint';

/** The box the signing secrets are sealed with at rest (WEBHOOK_SECRET_KEY). */
export const WEBHOOK_SECRET_BOX = Symbol('WEBHOOK_SECRET_BOX');

type EndpointRow = Prisma.WebhookEndpointGetPayload<object>;

/** Endpoints in `webhook.endpoints`; secrets sealed (AES-256-GCM) on the way in, opened on the way out. */
@Injectable()
export class PrismaWebhookEndpointRepository extends WebhookEndpointRepository {
  // Every event fanned out reads its organizations' subscriptions: those read together share one statement.
  private readonly subscriptions = batchedReads((keys: ReadonlyArray<readonly string[]>) => this.readSubscriptions(keys), () => this.host.inTransaction);

  constructor(
    private readonly host: PrismaTransactionHost,
    @Inject(WEBHOOK_SECRET_BOX) private readonly box: SecretBox,
  ) {
    super();
  }

  async insert(endpoint: WebhookEndpoint): Promise<void> {
    await this.host.client.webhookEndpoint.create({ data: { id: endpoint.id, organizationId: endpoint.props.organizationId, ...this.columns(endpoint) } });
  }

  async findById(endpointId: string): Promise<WebhookEndpoint | null> {
    const row = await this.host.client.webhookEndpoint.findUnique({ where: { id: endpointId } });
    return row ? this.toEndpoint(row) : null;
  }

  async findByIdForUpdate(endpointId: string): Promise<WebhookEndpoint | null> {
    const locked = await this.host.client.$queryRaw<Array<{ id: string }>>`SELECT id FROM "webhook"."endpoints" WHERE id = ${endpointId} FOR UPDATE`;
    return locked.length ? this.findById(endpointId) : null;
  }

  async list(organizationId: string, after: CursorPosition | null, limit: number): Promise<WebhookEndpoint[]> {
    const page = newestFirstPage(after, limit);
    const rows = await this.host.client.webhookEndpoint.findMany({
      where: { AND: [{ organizationId, deletedAt: null }, page.where] },
      orderBy: page.orderBy,
      take: page.take,
    });
    return rows.map((row) => this.toEndpoint(row));
  }

  findSubscriptionsOf(organizationIds: readonly string[]): Promise<EndpointSubscription[]> {
    return this.subscriptions(organizationIds);
  }

  // Once per event on the fan-out's path: one raw statement (no model query to compile) for the
  // events read together, that reads neither URL nor secret, so nothing is unsealed.
  private async readSubscriptions(keys: ReadonlyArray<readonly string[]>): Promise<EndpointSubscription[][]> {
    const rows = await this.host.query<{ id: string; organization_id: string; disabled: boolean; event_types: string[] }>(Prisma.sql`
      SELECT id, organization_id, disabled, event_types FROM "webhook"."endpoints"
      WHERE organization_id = ANY(${[...new Set(keys.flat())]}::text[]) AND deleted_at IS NULL
      ORDER BY created_at, id`);
    return keys.map((organizationIds) => {
      const wanted = new Set(organizationIds);
      return rows
        .filter((row) => wanted.has(row.organization_id))
        .map((row) => ({ id: row.id, organizationId: row.organization_id, disabled: row.disabled, eventTypes: row.event_types, deletedAt: null }));
    });
  }

  async save(endpoint: WebhookEndpoint): Promise<void> {
    await this.host.client.webhookEndpoint.update({ where: { id: endpoint.id }, data: this.columns(endpoint) });
  }

  private columns(endpoint: WebhookEndpoint) {
    const e = endpoint.props;
    return {
      url: e.url,
      description: e.description,
      disabled: e.disabled,
      eventTypes: [...e.eventTypes],
      secretSealed: this.box.seal(e.secret),
      previousSecretSealed: e.previousSecret ? this.box.seal(e.previousSecret.key) : null,
      previousSecretExpiresAt: e.previousSecret?.expiresAt ?? null,
      createdAt: e.createdAt,
      updatedAt: e.updatedAt,
      deletedAt: e.deletedAt,
    };
  }

  private toEndpoint(row: EndpointRow): WebhookEndpoint {
    return WebhookEndpoint.restore({
      id: row.id,
      organizationId: row.organizationId,
      url: row.url,
      description: row.description,
      disabled: row.disabled,
      eventTypes: row.eventTypes,
      secret: this.box.open(row.secretSealed),
      previousSecret:
        row.previousSecretSealed && row.previousSecretExpiresAt ? { key: this.box.open(row.previousSecretSealed), expiresAt: row.previousSecretExpiresAt } : null,
      createdAt: row.createdAt,
      updatedAt: row.updatedAt,
      deletedAt: row.deletedAt,
    });
  }
}
