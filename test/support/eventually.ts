/**
 * Waits until `probe` returns a value that `done` accepts, checking every `intervalMs`, and fails with the
 * last value seen after `timeoutMs`. For outcomes reached by several asynchronous steps (a payout going
 * through submit, inquiries and settlement), where no single event marks the end.
 */
export async function eventually<T>(
  probe: () => Promise<T>,
  done: (value: T) => boolean,
  {
    timeoutMs = 15_000,
    intervalMs = 50,
    what = 'condition',
  }: { timeoutMs?: number; intervalMs?: number; what?: string } = {},
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: T;
  for (;;) {
    last = await probe();
    if (done(last)) return last;
    if (Date.now() > deadline) {
      throw new Error(
        `timed out after ${timeoutMs} ms waiting for ${what}; last value: ${JSON.stringify(last, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v))}`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}
