import { Controller, Get, Query, Res } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiProperty, ApiPropertyOptional, ApiSchema, ApiServiceUnavailableResponse, ApiTags } from '@nestjs/swagger';
import { IsIn, IsOptional } from 'class-validator';
import type { FastifyReply } from 'fastify';
import type { HealthReport } from '@pfs/platform';
import { Public } from '../auth/public.decorator';
import { RequestId } from '../http/request-id.decorator';
import { REQUEST_ID_RESPONSE_HEADER } from '../openapi/response-headers';
import { READINESS_SCOPES, ReadinessChecks, type ReadinessScope } from './readiness.checks';

@ApiSchema({ name: 'Liveness' })
class LivenessDto {
  @ApiProperty({ enum: ['ok'] })
  status!: 'ok';
}

@ApiSchema({ name: 'Readiness', description: 'Overall status and the result of each check (`ok` or the failure).' })
class ReadinessDto implements HealthReport {
  @ApiProperty({ enum: ['ok', 'unavailable'] })
  status!: 'ok' | 'unavailable';

  @ApiProperty({
    type: 'object',
    additionalProperties: { type: 'string' },
    example: { redis: 'ok', organization: 'ok', ledger: 'ok', quote: 'ok', beneficiary: 'ok', 'webhook-delivery': 'ok', 'webhook-delivery-worker': 'ok' },
  })
  checks!: Record<string, string>;
}

class ReadinessQueryDto {
  @ApiPropertyOptional({
    enum: READINESS_SCOPES,
    default: 'all',
    description:
      '`all`: Redis and every service (the whole system can serve). `gateway`: Redis only (this gateway can serve; a service that is down is answered 503 on its own routes). Kubernetes probes the gateway with `gateway`.',
  })
  @IsOptional()
  @IsIn(READINESS_SCOPES)
  scope?: ReadinessScope;
}

/** Probes for orchestrators; no authentication (api-decisions §1). */
@ApiTags('Health')
@Public()
@Controller()
export class HealthController {
  constructor(private readonly readiness: ReadinessChecks) {}

  @Get('healthz')
  @ApiOperation({ operationId: 'getLiveness', summary: 'The gateway process is alive' })
  @ApiOkResponse({ description: 'Alive.', type: LivenessDto, headers: REQUEST_ID_RESPONSE_HEADER })
  healthz(): LivenessDto {
    return { status: 'ok' };
  }

  @Get('readyz')
  @ApiOperation({
    operationId: 'getReadiness',
    summary: 'The gateway can serve requests',
    description:
      'Ready when Redis answers and every service answers a ping on its command queue within 1 s. With `scope=gateway`, ready when Redis answers: ' +
      'the probe for load balancers, so that one service down does not take every gateway out of rotation.',
  })
  @ApiOkResponse({ description: 'Ready: every check passed.', type: ReadinessDto, headers: REQUEST_ID_RESPONSE_HEADER })
  @ApiServiceUnavailableResponse({ type: ReadinessDto, headers: REQUEST_ID_RESPONSE_HEADER, description: 'A check failed.' })
  async readyz(
    @RequestId() requestId: string,
    @Query() query: ReadinessQueryDto,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<HealthReport> {
    const report = await this.readiness.run(requestId, query.scope);
    void reply.status(report.status === 'ok' ? 200 : 503);
    return report;
  }
}
