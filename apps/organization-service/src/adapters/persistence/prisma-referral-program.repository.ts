import { Injectable } from '@nestjs/common';
import { PrismaTransactionHost } from '@pfs/persistence';
import { ReferralProgramRepository } from '../../application/ports/referral-program.repository';
import { ReferralProgram } from '../../domain/referral-program';

@Injectable()
export class PrismaReferralProgramRepository extends ReferralProgramRepository {
  constructor(private readonly host: PrismaTransactionHost) {
    super();
  }

  async find(organizationId: string): Promise<ReferralProgram> {
    const row = await this.host.client.referralProgram.findUnique({ where: { organizationId } });
    return row ? new ReferralProgram(row.organizationId, row.enabledAt, row.suspendedAt) : ReferralProgram.none(organizationId);
  }

  async save(program: ReferralProgram): Promise<void> {
    const state = { enabledAt: program.enabledAt, suspendedAt: program.suspendedAt };
    await this.host.client.referralProgram.upsert({
      where: { organizationId: program.organizationId },
      create: { organizationId: program.organizationId, ...state },
      update: state,
    });
  }
}
