export interface DisableServicenetCommand {
  organizationId: string;
}
