import type { Type } from '@nestjs/common';
import { PATH_METADATA } from '@nestjs/common/constants';
import type { ServiceEnvironment } from '@pfs/contracts';

/** Every controller under this path exists only in the sandbox (api-decisions §1). */
export const SANDBOX_PATH_PREFIX = 'v1/sandbox';

const SANDBOX_ONLY = 'pfs:sandbox-only';

/**
 * Marks a controller outside `/v1/sandbox` that exists only in the sandbox (the faucet, spec 4.6):
 * in production it is not registered, so its route answers 404 `not_found` like an unknown one.
 */
export function SandboxOnly(): ClassDecorator {
  return (target) => {
    Reflect.defineMetadata(SANDBOX_ONLY, true, target);
  };
}

export function isSandboxController(controller: Type): boolean {
  if (Reflect.getMetadata(SANDBOX_ONLY, controller) === true) return true;
  const declared: unknown = Reflect.getMetadata(PATH_METADATA, controller);
  const paths = Array.isArray(declared) ? declared : [declared];
  return paths.some((path) => typeof path === 'string' && path.replace(/^\/+/, '').startsWith(SANDBOX_PATH_PREFIX));
}

/**
 * The controllers to register in this environment. In production the `/v1/sandbox/...`
 * controllers are never registered, so their routes answer 404 `not_found` exactly like any
 * unknown route (before authentication, whatever the body) and are absent from the OpenAPI document.
 */
export function controllersFor(environment: ServiceEnvironment, controllers: Type[]): Type[] {
  return environment === 'sandbox' ? controllers : controllers.filter((controller) => !isSandboxController(controller));
}
