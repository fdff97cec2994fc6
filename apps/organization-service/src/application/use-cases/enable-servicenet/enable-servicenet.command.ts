export interface EnableServicenetCommand {
  organizationId: string;
}
