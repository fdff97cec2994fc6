import { ServicenetDirectory } from '../../../src/application/ports/servicenet-directory';

/** The organization service's servicenet answers, as the test sets them: enabled only for the organizations added. */
export class InMemoryServicenetDirectory extends ServicenetDirectory {
  readonly enabled = new Set<string>();

  async isEnabled(organizationId: string): Promise<boolean> {
    return this.enabled.has(organizationId);
  }
}
