import { SetMetadata } from '@nestjs/common';

export const IS_PUBLIC = 'pfs:public';

/** Opts a route out of API key authentication (health and documentation only). */
export const Public = (): MethodDecorator & ClassDecorator => SetMetadata(IS_PUBLIC, true);
