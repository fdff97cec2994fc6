import './tracing.setup';
import { runService } from '@pfs/messaging';
import { BeneficiaryModule } from './beneficiary.module';

runService(BeneficiaryModule, 3104);
