import { applyDecorators } from '@nestjs/common';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString, Matches, MaxLength, MinLength } from 'class-validator';

export const REFERENCE_MAX = 140;
const REFERENCE_RULE = `must be 1–${REFERENCE_MAX} printable characters`;

/** An optional free-text `reference` shown with a money movement: 1–140 characters, no control characters. */
export function IsReference(description: string): PropertyDecorator {
  return applyDecorators(
    ApiPropertyOptional({ maxLength: REFERENCE_MAX, example: 'Invoice 2026-117', description }),
    IsOptional(),
    IsString({ message: REFERENCE_RULE }),
    MinLength(1, { message: REFERENCE_RULE }),
    MaxLength(REFERENCE_MAX, { message: REFERENCE_RULE }),
    Matches(/^[^\p{Cc}]*$/u, { message: REFERENCE_RULE }),
  );
}
