/**
 * Builds the name → handler map of one queue and refuses to start when a declared job name has
 * no handler, has two, or a handler answers a name the contract does not declare.
 */
export function buildHandlerRegistry<H>(
  queue: string,
  declared: readonly string[],
  handlers: readonly H[],
  nameOf: (handler: H) => string,
): Map<string, H> {
  const registry = new Map<string, H>();
  const problems: string[] = [];
  for (const handler of handlers) {
    const name = nameOf(handler);
    if (!declared.includes(name)) problems.push(`"${name}" is not a job of ${queue}`);
    else if (registry.has(name)) problems.push(`"${name}" has two handlers`);
    else registry.set(name, handler);
  }
  for (const name of declared) {
    if (!registry.has(name)) problems.push(`"${name}" has no handler`);
  }
  if (problems.length) {
    throw new Error(`refusing to consume ${queue}: ${problems.join('; ')}`);
  }
  return registry;
}
