import { Injectable, type CallHandler, type ExecutionContext, type NestInterceptor } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { map, type Observable } from 'rxjs';
import type { PageView } from '@pfs/contracts';
import { pageResponse } from './list-envelope';

/** Turns the page a @Paginated handler returns into the list envelope and its headers. */
@Injectable()
export class PageInterceptor implements NestInterceptor {
  intercept(context: ExecutionContext, next: CallHandler<PageView<unknown>>): Observable<unknown> {
    const reply = context.switchToHttp().getResponse<FastifyReply>();
    return next.handle().pipe(map((page) => pageResponse(reply, page)));
  }
}
