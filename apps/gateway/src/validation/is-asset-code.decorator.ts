import { applyDecorators } from '@nestjs/common';
import { ApiProperty } from '@nestjs/swagger';
import { IsIn } from 'class-validator';
import { ASSET_CATALOG } from '@pfs/contracts';

const CODES = ASSET_CATALOG.map((asset) => asset.code);

/** An asset code of the catalog (api-decisions §4), e.g. `USDC`. */
export function IsAssetCode(description = 'Asset code.'): PropertyDecorator {
  return applyDecorators(
    ApiProperty({ enum: CODES, enumName: 'AssetCode', description }),
    IsIn(CODES, { message: `must be one of ${CODES.join(', ')}` }),
  );
}
