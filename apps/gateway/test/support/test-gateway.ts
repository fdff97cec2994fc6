import { Module, type Type } from '@nestjs/common';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { CommandBus } from '@pfs/messaging';
import { createGatewayApp } from '../../src/gateway.app';
import { readGatewayConfig, type GatewayConfig } from '../../src/gateway.config';
import { GatewayModule } from '../../src/gateway.module';
import { withIdempotentWrites } from '../../src/idempotency/idempotent-routes';
import { send, type Answer, type RequestOptions } from './http-client';
import { memoryLogger, type MemoryLogger } from './in-memory/memory-logger';

export interface TestGateway {
  app: NestFastifyApplication;
  config: GatewayConfig;
  baseUrl: string;
  logs: MemoryLogger;
  request(path: string, options?: RequestOptions): Promise<Answer>;
  close(): Promise<void>;
}

/**
 * A gateway replica in this process on its real Fastify stack and a real socket, talking to
 * the real Redis under this test file's prefix. `env` overrides the configuration (a small
 * rate limit, a short lease); `controllers` mounts test-only routes beside the real ones, their
 * writes honouring Idempotency-Key as the real ones do.
 */
export async function startTestGateway(options: { env?: NodeJS.ProcessEnv; controllers?: Type[]; baseEnv?: NodeJS.ProcessEnv } = {}): Promise<TestGateway> {
  // `baseEnv`: the settings to start from (this process's environment unless given).
  const config = readGatewayConfig({ ...(options.baseEnv ?? process.env), ...options.env });
  const logs = memoryLogger();
  const bus = new CommandBus({ redisUrl: config.redisUrl, prefix: config.queuePrefix, timeoutMs: config.commandTimeoutMs, name: 'gateway-test' });
  await bus.start();
  const runtime = { config, logger: logs.logger, bus };

  @Module({ imports: [GatewayModule.forRoot(runtime)], controllers: withIdempotentWrites(options.controllers ?? []) })
  class TestGatewayModule {}

  const app = await createGatewayApp(TestGatewayModule, runtime);
  await app.listen(0, '127.0.0.1');
  const baseUrl = (await app.getUrl()).replace('[::1]', '127.0.0.1');
  return {
    app,
    config,
    baseUrl,
    logs,
    request: (path, requestOptions) => send(baseUrl, path, requestOptions),
    close: async () => {
      await app.close();
      await bus.close();
    },
  };
}
