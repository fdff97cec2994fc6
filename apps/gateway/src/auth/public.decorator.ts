import { applyDecorators, SetMetadata } from '@nestjs/common';
import { ApiExtension } from '@nestjs/swagger';

export const IS_PUBLIC = 'pfs:public';
/** Read by the OpenAPI post-processor, then removed from the document. */
export const PUBLIC_EXTENSION = 'x-pfs-public';

/** Opts a route out of API key authentication, and so of the rate limit (health and documentation only). */
export const Public = (): MethodDecorator & ClassDecorator =>
  applyDecorators(SetMetadata(IS_PUBLIC, true), ApiExtension(PUBLIC_EXTENSION, true)) as MethodDecorator & ClassDecorator;
