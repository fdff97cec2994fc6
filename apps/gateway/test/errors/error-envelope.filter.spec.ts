import { BadRequestException, HttpException, NotFoundException } from '@nestjs/common';
import { DomainError } from '@pfs/contracts';
import { RemoteDomainError, ServiceUnavailableError } from '@pfs/messaging';
import { memoryLogger } from '../support/in-memory/memory-logger';
import { ErrorEnvelopeFilter } from '../../src/errors/error-envelope.filter';

describe('ErrorEnvelopeFilter.render', () => {
  const setup = () => {
    const logs = memoryLogger();
    return { logs, filter: new ErrorEnvelopeFilter(logs.logger) };
  };

  it('turns an unexpected error into a generic 500 and logs the real one', () => {
    const { filter, logs } = setup();
    const error = new Error('duplicate key value violates unique constraint "accounts_pkey" in SELECT * FROM ledger.accounts');

    const rendered = filter.render(error);

    expect(rendered.status).toBe(500);
    expect(rendered.code).toBe('internal_error');
    expect(rendered.message).not.toMatch(/SELECT|constraint|accounts_pkey|\bat\s|Error:/);
    const logged = logs.lines().find((line) => line.msg === 'unhandled error');
    expect(JSON.stringify(logged)).toContain('accounts_pkey');
    expect(JSON.stringify(logged)).toContain('error-envelope.filter.spec');
  });

  it('never passes on the message of a domain error that maps to 500', () => {
    const { filter } = setup();
    const rendered = filter.render(new RemoteDomainError({ code: 'internal_error', message: 'connection to 10.0.0.5:5432 refused' }));
    expect(rendered).toEqual({ status: 500, code: 'internal_error', message: expect.not.stringContaining('10.0.0.5') });
  });

  it('treats a thrown non-Error value as a 500 too', () => {
    const { filter } = setup();
    expect(filter.render('boom').status).toBe(500);
    expect(filter.render(undefined).status).toBe(500);
  });

  it('answers a service that did not reply with 503 internal_error naming the service', () => {
    const { filter } = setup();
    expect(filter.render(new ServiceUnavailableError('ledger'))).toEqual({
      status: 503,
      code: 'internal_error',
      message: expect.stringContaining('ledger'),
    });
  });

  it('passes domain errors through with the status of the table', () => {
    const { filter } = setup();
    expect(filter.render(new DomainError('account_not_found', 'No account acct_1 was found.'))).toEqual({
      status: 404,
      code: 'account_not_found',
      message: 'No account acct_1 was found.',
    });
    expect(filter.render(new RemoteDomainError({ code: 'authentication_failed', message: 'unknown key' })).status).toBe(401);
  });

  it('renders framework errors with codes of the catalog', () => {
    const { filter } = setup();
    expect(filter.render(new NotFoundException()).code).toBe('not_found');
    expect(filter.render(new HttpException('too large', 413)).code).toBe('invalid_request');
    expect(filter.render(new HttpException('unsupported', 415)).status).toBe(400);
    expect(filter.render(new BadRequestException('Unexpected token } in JSON')).message).toBe('The request body is not valid JSON.');
    expect(filter.render(new HttpException('server side', 502)).status).toBe(500);
  });
});
