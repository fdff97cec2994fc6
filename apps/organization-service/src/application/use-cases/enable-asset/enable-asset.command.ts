export interface EnableAssetCommand {
  organizationId: string;
  asset: string;
}
