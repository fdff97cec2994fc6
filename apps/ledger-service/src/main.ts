import './tracing.setup';
import { runService } from '@pfs/messaging';
import { LedgerModule } from './ledger.module';

runService(LedgerModule, 3102);
