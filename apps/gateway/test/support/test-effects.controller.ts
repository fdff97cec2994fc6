import { Body, Controller, Get, Param, Patch, Post, Put, Query } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiProperty, ApiSchema } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsIn, IsInt, IsOptional, IsString, Matches, Max, Min, ValidateNested } from 'class-validator';
import { DomainError, ERROR_CODES, type ErrorCode } from '@pfs/contracts';
import { ActingOrganizationId } from '../../src/auth/acting-organization.decorator';
import { OnBehalfOf } from '../../src/auth/on-behalf-of.decorator';
import { NoQueryDto } from '../../src/http/no-query.dto';
import { ApiErrors } from '../../src/openapi/api-errors.decorator';
import { GatewayRedis } from '../../src/redis/gateway-redis';
import { IsAmount } from '../../src/validation/is-amount.decorator';
import { IsAssetCode } from '../../src/validation/is-asset-code.decorator';
import { RequestErrorCode } from '../../src/validation/request-error-code.decorator';

class TestNote {
  @IsString({ message: 'must be a string' })
  text!: string;
}

/** A mutating request whose effect is a real Redis INCR, so tests can count effects. */
export class TestEffectBody {
  @Matches(/^[a-z0-9-]{1,64}$/, { message: 'must be 1–64 lowercase letters, digits or dashes' })
  counter!: string;

  @IsAssetCode()
  asset!: string;

  @IsAmount({ assetField: 'asset' })
  amount!: string;

  /** Holds the request open after the effect, to overlap concurrent requests. */
  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(5000)
  delayMs?: number;

  /** Answers 500 while the counter is at most this (after counting), then succeeds. */
  @IsOptional()
  @IsInt()
  @Min(1)
  failWhileAtMost?: number;

  /** Answers this domain error after the effect. */
  @IsOptional()
  @IsIn(ERROR_CODES)
  answer?: ErrorCode;

  @IsOptional()
  @ValidateNested()
  @Type(() => TestNote)
  note?: TestNote;
}

@ApiSchema({ name: 'TestEffect' })
export class TestEffect {
  @ApiProperty({ enum: ['test_effect'] })
  object!: 'test_effect';

  @ApiProperty()
  counter!: string;

  @ApiProperty({ type: 'integer', minimum: 1 })
  count!: number;

  @ApiProperty({ pattern: '^org_[0-9a-f]{32}$' })
  organizationId!: string;

  @ApiProperty()
  amount!: string;
}

@ApiSchema({ name: 'TestEffectCount' })
class TestEffectCount {
  @ApiProperty()
  counter!: string;

  @ApiProperty({ type: 'integer', minimum: 0 })
  count!: number;
}

/**
 * Test-only routes standing in for mutating endpoints: POST, PUT and
 * PATCH with a body, one acting for clients, one answering malformed requests with
 * `validation_error`.
 */
@Controller('v1/test-effects')
export class TestEffectsController {
  constructor(private readonly redis: GatewayRedis) {}

  @Post()
  @OnBehalfOf('creator')
  @ApiCreatedResponse({ type: TestEffect })
  @ApiErrors('insufficient_funds')
  create(@Body() body: TestEffectBody, @ActingOrganizationId() organizationId: string): Promise<TestEffect> {
    return this.apply(body, organizationId);
  }

  @Post('strict')
  @ApiCreatedResponse({ type: TestEffect })
  @RequestErrorCode('validation_error')
  @OnBehalfOf('creator', { required: true })
  @ApiErrors()
  createStrict(@Body() body: TestEffectBody, @ActingOrganizationId() organizationId: string): Promise<TestEffect> {
    return this.apply(body, organizationId);
  }

  @Put(':effectId')
  @ApiOkResponse({ type: TestEffect })
  @ApiErrors()
  put(@Param('effectId') _effectId: string, @Body() body: TestEffectBody, @ActingOrganizationId() organizationId: string): Promise<TestEffect> {
    return this.apply(body, organizationId);
  }

  @Patch(':effectId')
  @ApiOkResponse({ type: TestEffect })
  @ApiErrors()
  patch(@Param('effectId') _effectId: string, @Body() body: TestEffectBody, @ActingOrganizationId() organizationId: string): Promise<TestEffect> {
    return this.apply(body, organizationId);
  }

  @Get(':counter')
  @ApiOkResponse({ type: TestEffectCount })
  @ApiErrors()
  async read(@Param('counter') counter: string, @Query() _query: NoQueryDto): Promise<TestEffectCount> {
    return { counter, count: Number((await this.redis.client.get(this.counterKey(counter))) ?? 0) };
  }

  private async apply(body: TestEffectBody, organizationId: string): Promise<TestEffect> {
    const count = await this.redis.client.incr(this.counterKey(body.counter));
    if (body.delayMs) await new Promise((resolve) => setTimeout(resolve, body.delayMs));
    if (body.failWhileAtMost !== undefined && count <= body.failWhileAtMost) throw new Error('simulated failure after the effect');
    if (body.answer) throw new DomainError(body.answer, `Simulated ${body.answer}.`);
    return { object: 'test_effect', counter: body.counter, count, organizationId, amount: body.amount };
  }

  private counterKey(counter: string): string {
    return this.redis.key('test-effects', counter);
  }
}
