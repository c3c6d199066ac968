/**
 * Runs a readiness probe (a `SELECT 1`, a `PING`) with a time limit. Resolves to "ok", or to why it failed,
 * so a readiness endpoint can say which dependency is missing without ever hanging on one.
 */
export async function probeDependency(probe: () => Promise<unknown>, timeoutMs = 1_000): Promise<string> {
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      probe(),
      new Promise((_, reject) => {
        timer = setTimeout(() => reject(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
      }),
    ]);
    return 'ok';
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  } finally {
    clearTimeout(timer);
  }
}
