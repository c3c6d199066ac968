import type { Queue } from 'bullmq';

/** The jobs waiting in each of the console's queues, or why Redis could not say. */
export type QueueDepth =
  | {
      available: true;
      counts: { name: string; waiting: number; active: number; delayed: number; failed: number }[];
    }
  | { available: false; reason: string };

/** How long the page waits for Redis before it says the queues are unavailable. */
const QUEUE_ANSWER_MS = 1_500;

/**
 * The jobs in each queue, or why they are not known: the page is about PostgreSQL's numbers, so Redis
 * being away (or slow) costs it one section, never the page.
 */
export async function queueDepths(queues: Record<string, Queue>): Promise<QueueDepth> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer in ${QUEUE_ANSWER_MS} ms`)), QUEUE_ANSWER_MS);
  });
  try {
    const counts = await Promise.race([
      Promise.all(
        Object.entries(queues).map(async ([name, queue]) => {
          const c = await queue.getJobCounts('waiting', 'prioritized', 'active', 'delayed', 'failed');
          return {
            name,
            waiting: (c.waiting ?? 0) + (c.prioritized ?? 0),
            active: c.active ?? 0,
            delayed: c.delayed ?? 0,
            failed: c.failed ?? 0,
          };
        }),
      ),
      late,
    ]);
    return { available: true, counts };
  } catch (error) {
    return { available: false, reason: (error as Error).message };
  } finally {
    clearTimeout(timer);
  }
}
