/**
 * Polls until `probe` returns a value other than undefined, or fails after `timeoutMs`. The
 * default deadline is generous on purpose: it only decides how late a broken test fails, and
 * a busy 2-core machine can take seconds for what usually takes milliseconds.
 */
export async function eventually<T>(probe: () => Promise<T | undefined>, timeoutMs = 20000, intervalMs = 50): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  for (;;) {
    try {
      const value = await probe();
      if (value !== undefined) return value;
    } catch (error) {
      lastError = error;
    }
    if (Date.now() > deadline) {
      throw new Error(`condition not met within ${timeoutMs} ms${lastError ? `: ${(lastError as Error).message}` : ''}`);
    }
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}
