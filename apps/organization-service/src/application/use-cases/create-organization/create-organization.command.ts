import type { EntityType } from '../../../domain/organization';

export interface CreateOrganizationCommand {
  /** The broker: it becomes the client's creator (parentOrganizationId). */
  callerOrganizationId: string;
  name: string;
  entityType: EntityType;
  country: string;
  email: string | null;
}
