// `pnpm bench`: measures the service against the machine's own ceilings and prints the table; the same
// results go to bench/results/<timestamp>.json. `pnpm bench --smoke` runs every path in seconds, for CI.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parseBenchOptions, USAGE, UsageError, type BenchOptions } from './bench-options.js';
import { AppProcess } from './app-process.js';
import { RESULTS_DIR, runBench } from './bench-run.js';
import { CleanupStack } from './cleanup-stack.js';
import { formatVerdicts } from './ratios.js';
import { formatTable } from './results-table.js';

const startedAt = Date.now();
const log = (line: string) =>
  process.stderr.write(`bench +${((Date.now() - startedAt) / 1000).toFixed(1)}s: ${line}\n`);

let options: BenchOptions;
try {
  options = parseBenchOptions(process.argv.slice(2));
} catch (error) {
  if (!(error instanceof UsageError)) throw error;
  if (error.message) console.error(error.message);
  console.error(USAGE);
  process.exit(error.message ? 2 : 0);
}

const cleanup = new CleanupStack();
const interruption = new AbortController();
// An object, so the checks below see what the signal handler set.
const run = { interrupted: false };
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (run.interrupted) return;
    run.interrupted = true;
    interruption.abort();
    log(`${signal}: stopping every process and removing the database`);
    void cleanup.runAll(log).finally(() => process.exit(130));
  });
}
// Last resort if the bench dies without running its cleanup: no app process outlives it.
process.on('exit', () => AppProcess.killAll());

try {
  const report = await runBench(options, cleanup, log, interruption.signal);
  const file = join(RESULTS_DIR, `${report.startedAt.replace(/[:.]/g, '-')}.json`);
  await writeFile(file, JSON.stringify(report, null, 2) + '\n');
  if (options.json) {
    process.stdout.write(JSON.stringify(report, null, 2) + '\n');
  } else {
    console.log(`\n${formatTable(report.figures)}\n`);
    console.log(`${formatVerdicts(report.ratioVerdicts)}\n`);
    for (const [name, problems] of Object.entries(report.problems)) {
      console.log(
        `${name} logged: ${Object.entries(problems)
          .map(([msg, p]) => `${p.count}× "${msg}"`)
          .join(', ')}`,
      );
    }
    if (Object.values(report.problems).some((p) => 'request refused (BAD_REQUEST)' in p)) {
      console.log(
        '(each load run that ends cuts its requests in flight: the API logs most as "request aborted by the client before its body arrived"; one cut as its body was being read can be refused as a malformed body)',
      );
    }
    const { othersCpu, cpus } = report.machine;
    console.log(
      `other processes on this machine took ${othersCpu.mean} of its ${cpus} cores on average during the HTTP ` +
        `runs (at most ${othersCpu.max}): the figures are low by about that share`,
    );
    console.log(`${report.plan.smoke ? 'smoke run, ' : ''}${report.elapsedS} s; results in ${file}`);
  }
  if (report.profiles) log(`CPU profiles in ${report.profiles}`);
  if (options.keep) log(`kept database ${report.database}`);
} catch (error) {
  if (!run.interrupted) {
    log(`failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    process.exitCode = 1;
  }
} finally {
  if (!run.interrupted) await cleanup.runAll(log);
}
// Connection pools and timers of libraries would otherwise keep the process alive.
if (!run.interrupted) process.exit();
