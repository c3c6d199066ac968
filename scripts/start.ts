// `pnpm start`: runs the API, the worker and the rail simulator together against the local PostgreSQL and
// Redis (the database is migrated first by the `start` script), each line prefixed with its app's name.
// The simulator serves two sponsor banks, `primary` (:4100) and `secondary` (:4101), and the API and the
// worker are given a BANKS naming both, unless BANKS is set (scripts/start/start-banks.ts).
// In development it also prepares a demo merchant with a funded wallet and, once the API answers, prints
// its MID, a fresh token and a ready `curl` for a first payout. The apps log JSON (as in production); this
// launcher shows each line readably unless LOG_FORMAT=json. Ctrl-C stops them all; if one dies, the others
// are stopped too.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { cliConfigSchema, loadConfigOrExit } from '@payout/config';
import { createPrismaClient } from '@payout/db';
import { prettyFactory } from 'pino-pretty';
import { printFirstPayoutGuide, waitUntilReady } from './start/first-payout-guide.js';
import { prepareDemoMerchant, type DemoMerchant } from './start/demo-merchant.js';
import { startBanks } from './start/start-banks.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const APPS = [
  { name: 'rail-sim', color: 35 },
  { name: 'worker', color: 33 },
  { name: 'api', color: 36 },
];

// `pnpm start` is the development launcher: without an explicit NODE_ENV the apps run as development, where
// the placeholder secrets are accepted (packages/config refuses them when NODE_ENV is unset: production).
const launcherEnv: NodeJS.ProcessEnv = { ...process.env, NODE_ENV: process.env.NODE_ENV ?? 'development' };
const banks = startBanks(launcherEnv);
const env: NodeJS.ProcessEnv = { ...launcherEnv, ...banks.env };
const development = env.NODE_ENV === 'development';
const readable = (env.LOG_FORMAT ?? 'pretty') !== 'json';
const prettify = prettyFactory({
  colorize: process.stdout.isTTY,
  singleLine: true,
  translateTime: 'SYS:HH:MM:ss.l',
  ignore: 'pid,hostname,app',
});

/** A JSON log line rendered for a person; anything that is not a JSON object passes through unchanged. */
function humanLine(line: string): string {
  if (!readable || !line.startsWith('{')) return line + '\n';
  try {
    return prettify(JSON.parse(line) as object);
  } catch {
    return line + '\n';
  }
}

let demo: DemoMerchant | undefined;
if (development) {
  const config = loadConfigOrExit(cliConfigSchema, env);
  const db = createPrismaClient({
    url: config.DATABASE_URL,
    poolSize: 1,
    connectTimeoutMs: config.DATABASE_CONNECT_TIMEOUT_MS,
  });
  try {
    demo = await prepareDemoMerchant(db);
  } finally {
    await db.$disconnect();
  }
}

console.log(
  `Banks (rail simulator): ${banks.banks.map((b) => `${b.name} ${banks.urls.get(b.name)} (account ${b.account})`).join(', ')}` +
    (banks.env.BANKS ? '' : '; BANKS is yours, as set'),
);

const children = new Map<string, ChildProcess>();
let stopping = false;

for (const app of APPS) {
  const entry = `${root}/apps/${app.name}/src/main.ts`;
  if (!existsSync(entry)) continue;
  const child = spawn(process.execPath, ['--conditions=source', '--import', 'tsx', entry], {
    cwd: root,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.set(app.name, child);
  const prefix = `\x1b[${app.color}m${app.name.padEnd(8)}\x1b[0m | `;
  for (const stream of [child.stdout, child.stderr]) {
    createInterface({ input: stream }).on('line', (line) =>
      process.stdout.write(prefix + humanLine(line).replace(/\n(?=.)/g, `\n${prefix}`)),
    );
  }
  child.on('exit', (code, signal) => {
    children.delete(app.name);
    if (!stopping) {
      console.error(`${app.name} exited (${signal ?? `code ${code}`}); stopping the others`);
      process.exitCode = 1;
      stopAll();
    }
    if (children.size === 0) process.exit();
  });
}

if (children.size === 0) {
  console.error('no apps to start');
  process.exit(1);
}

function stopAll(): void {
  stopping = true;
  for (const child of children.values()) child.kill('SIGTERM');
  // The apps drain in-flight work on SIGTERM; give up on any that take longer than their own deadline.
  setTimeout(() => {
    for (const child of children.values()) child.kill('SIGKILL');
  }, 30_000).unref();
}

process.on('SIGINT', stopAll);
process.on('SIGTERM', stopAll);

if (demo) {
  const apiUrl = `http://127.0.0.1:${env.PORT ?? '3000'}`;
  if (await waitUntilReady(apiUrl, () => stopping)) printFirstPayoutGuide(apiUrl, demo);
}
