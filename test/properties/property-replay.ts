import { relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { expect } from 'vitest';

// Every property run starts from a fresh seed, so the suite keeps exploring new cases run after run; a
// failure must therefore say exactly how to get it back. fast-check's own report gives the seed and the
// path of the shrunk counterexample, but not how to feed them back into a Vitest run, and model-based
// runs also need their commands' replay path. These helpers read all three from the environment and put
// the command that replays the failure at the top of the message:
//
//   FC_SEED=-1289374 FC_PATH="3:1:0" FC_REPLAY_PATH="AAAB" npx vitest run test/properties/….test.ts

/** The seed of this run: FC_SEED when replaying a reported failure, otherwise a fresh one. */
function seedOfThisRun(): number {
  const fromEnv = process.env.FC_SEED;
  if (fromEnv !== undefined && fromEnv !== '') {
    const seed = Number(fromEnv);
    if (!Number.isSafeInteger(seed)) throw new Error(`FC_SEED must be an integer, not ${fromEnv}`);
    return seed;
  }
  return (Date.now() ^ Math.floor(Math.random() * 0x7fffffff)) | 0;
}

function parameters<Ts>(numRuns: number): fc.Parameters<Ts> {
  const path = process.env.FC_PATH;
  return { numRuns, seed: seedOfThisRun(), ...(path ? { path } : {}) };
}

/** The replay path of fc.commands when replaying a reported failure (FC_REPLAY_PATH), else undefined. */
export function commandsReplayPath(): string | undefined {
  return process.env.FC_REPLAY_PATH || undefined;
}

function replayCommand<Ts>(details: fc.RunDetails<Ts>, testFileUrl: string): string {
  const file = relative(process.cwd(), fileURLToPath(testFileUrl));
  // fast-check prints a commands counterexample with its replay path in a comment: /*replayPath="…"*/.
  const replayPath = /\/\*replayPath="([^"]*)"\*\//.exec(fc.stringify(details.counterexample))?.[1];
  const env = [
    `FC_SEED=${details.seed}`,
    details.counterexamplePath ? `FC_PATH="${details.counterexamplePath}"` : '',
    replayPath ? `FC_REPLAY_PATH="${replayPath}"` : '',
  ].filter(Boolean);
  // The path only fits the property that failed, so the command runs that test alone.
  const name = expect.getState().currentTestName?.split(' > ').at(-1);
  const only = name ? ` -t ${JSON.stringify(name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))}` : '';
  return `replay with: ${env.join(' ')} npx vitest run ${file}${only}`;
}

/** Checks a synchronous property with `numRuns` runs; a failure names the command that replays it. */
export function assertProperty<Ts>(property: fc.IProperty<Ts>, numRuns: number, testFileUrl: string): void {
  const details = fc.check(property, parameters<Ts>(numRuns));
  if (details.failed) {
    throw new Error(`${replayCommand(details, testFileUrl)}\n${fc.defaultReportMessage(details) ?? ''}`, {
      cause: details.errorInstance,
    });
  }
}

/** Checks an asynchronous property with `numRuns` runs; a failure names the command that replays it. */
export async function assertAsyncProperty<Ts>(
  property: fc.IAsyncProperty<Ts>,
  numRuns: number,
  testFileUrl: string,
): Promise<void> {
  const details = await fc.check(property, parameters<Ts>(numRuns));
  if (details.failed) {
    throw new Error(`${replayCommand(details, testFileUrl)}\n${(await fc.asyncDefaultReportMessage(details)) ?? ''}`, {
      cause: details.errorInstance,
    });
  }
}
