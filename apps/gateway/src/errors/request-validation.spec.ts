import { NoQueryDto } from '../http/no-query.dto';
import { UNDECODABLE_QUERY_PARAMETER } from '../http/query-string.parser';
import { RequestValidationPipe } from './request-validation';
import { RequestValidationError } from './request-validation-error';

describe('RequestValidationPipe on a route that takes no query parameters', () => {
  const pipe = new RequestValidationPipe();
  const noQuery = { type: 'query' as const, metatype: NoQueryDto, data: undefined };

  it('lets an empty query through as the route’s DTO', async () => {
    await expect(pipe.transform({}, noQuery)).resolves.toBeInstanceOf(NoQueryDto);
    await expect(pipe.transform(Object.create(null), noQuery)).resolves.toBeInstanceOf(NoQueryDto);
  });

  it('refuses any parameter by name, as every route refuses an unknown one', async () => {
    await expect(pipe.transform({ limit: '10' }, noQuery)).rejects.toEqual(new RequestValidationError('limit: is not a recognised parameter'));
    const withPrototypeName = Object.create(null) as Record<string, string>;
    withPrototypeName['toString'] = 'x';
    await expect(pipe.transform(withPrototypeName, noQuery)).rejects.toBeInstanceOf(RequestValidationError);
  });

  it('refuses a parameter that is not percent-encoded UTF-8, though it has no name a query could keep', async () => {
    const undecodable = { [UNDECODABLE_QUERY_PARAMETER]: '%FF' };
    await expect(pipe.transform(undecodable, noQuery)).rejects.toEqual(new RequestValidationError('%FF: must be percent-encoded UTF-8'));
  });
});
