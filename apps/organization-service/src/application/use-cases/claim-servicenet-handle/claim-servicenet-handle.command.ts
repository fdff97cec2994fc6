export interface ClaimServicenetHandleCommand {
  organizationId: string;
  handle: string;
}
