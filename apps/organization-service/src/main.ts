import './tracing.setup';
import { runService } from '@pfs/messaging';
import { OrganizationModule } from './organization.module';

runService(OrganizationModule, 3101);
