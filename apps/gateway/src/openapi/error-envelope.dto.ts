import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import { ERROR_CODES, type ErrorCode } from '@pfs/contracts';

@ApiSchema({ name: 'Error', description: 'What went wrong; `code` is stable, `message` is for humans.' })
export class ErrorDetailDto {
  @ApiProperty({ enum: ERROR_CODES, enumName: 'ErrorCode', description: 'Stable machine-readable code.' })
  code!: ErrorCode;

  @ApiProperty({ description: 'Human-readable explanation; validation messages name the field (`limit: …`).' })
  message!: string;

  @ApiProperty({ pattern: '^req_[0-9a-f]{32}$', example: 'req_4f1c2b9e8d7a6b5c4d3e2f1a0b9c8d7e', description: 'Equals the X-Request-Id response header.' })
  requestId!: string;
}

@ApiSchema({ name: 'ErrorEnvelope', description: 'The body of every error response.' })
export class ErrorEnvelopeDto {
  @ApiProperty({ type: () => ErrorDetailDto })
  error!: ErrorDetailDto;
}
