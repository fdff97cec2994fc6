import { Inject, Injectable, type OnApplicationShutdown } from '@nestjs/common';
import { createProducerConnection, type RedisClient } from '@pfs/messaging';
import { untagged } from '@pfs/platform';
import type { GatewayConfig } from '../gateway.config';
import { GATEWAY_CONFIG } from '../gateway.tokens';

/**
 * A Lua script run atomically by Redis. It becomes a command of the connection through
 * ioredis's `defineCommand`, which sends EVALSHA and falls back to EVAL when Redis no longer
 * knows the digest (restarted or flushed since the last call).
 */
export class RedisScript {
  constructor(
    /** The command's name on the connection: letters only, unique per script. */
    readonly name: string,
    readonly numberOfKeys: number,
    readonly lua: string,
  ) {
    SCRIPTS.push(this);
  }
}

/** Every script the loaded modules declare, defined on each connection as it is made. */
const SCRIPTS: RedisScript[] = [];

type ScriptCommand = (...keysAndArgs: Array<string | number>) => Promise<unknown>;

/**
 * The gateway's own Redis connection for the state every replica shares (rate-limit windows,
 * idempotency records). Commands fail after a couple of reconnect attempts instead of hanging,
 * so a Redis outage surfaces as an error response rather than a stuck request.
 */
@Injectable()
export class GatewayRedis implements OnApplicationShutdown {
  readonly client: RedisClient;
  /** Every key of this deployment starts with it (QUEUE_PREFIX), so parallel test runs stay apart. */
  readonly prefix: string;
  private readonly defined = new Set<string>();

  constructor(@Inject(GATEWAY_CONFIG) config: GatewayConfig) {
    this.client = createProducerConnection(config.redisUrl, 'gateway-platform');
    this.prefix = config.queuePrefix;
    // Up front, so no request pays for defining one (or for a pipeline, should the connection
    // ever batch its commands, missing a script defined after it was made).
    for (const script of SCRIPTS) this.define(script);
  }

  private define(script: RedisScript): void {
    if (this.defined.has(script.name)) return;
    this.client.defineCommand(script.name, { numberOfKeys: script.numberOfKeys, lua: script.lua });
    this.defined.add(script.name);
  }

  key(...parts: string[]): string {
    // Without the queues' hash tag: on a Redis Cluster these keys (each script takes one)
    // spread over the slots instead of all landing on the queues' primary.
    return [untagged(this.prefix), ...parts].join(':');
  }

  run(script: RedisScript, keys: string[], args: Array<string | number>): Promise<unknown> {
    if (keys.length !== script.numberOfKeys) throw new Error(`${script.name} takes ${script.numberOfKeys} key(s)`);
    this.define(script);
    // defineCommand adds the command as a method of the connection, which its type cannot know.
    const command = (this.client as unknown as Record<string, ScriptCommand>)[script.name];
    return command.call(this.client, ...keys, ...args);
  }

  async onApplicationShutdown(): Promise<void> {
    await this.client.quit().catch(() => this.client.disconnect());
  }
}
