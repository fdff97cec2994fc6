import './tracing.setup';
import { runService } from '@pfs/messaging';
import { QuoteModule } from './quote.module';

runService(QuoteModule, 3103);
