// `pnpm start`: runs the API, the worker and the rail simulator together against the local PostgreSQL and
// Redis (the database is migrated first by the `start` script), each line prefixed with its app's name.
// Ctrl-C stops them all; if one dies, the others are stopped too.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const APPS = [
  { name: 'rail-sim', color: 35 },
  { name: 'worker', color: 33 },
  { name: 'api', color: 36 },
];

const children = new Map<string, ChildProcess>();
let stopping = false;

for (const app of APPS) {
  const entry = `${root}/apps/${app.name}/src/main.ts`;
  if (!existsSync(entry)) continue;
  const child = spawn(process.execPath, ['--conditions=source', '--import', 'tsx', entry], {
    cwd: root,
    env: process.env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.set(app.name, child);
  const prefix = `\x1b[${app.color}m${app.name.padEnd(8)}\x1b[0m | `;
  for (const stream of [child.stdout, child.stderr]) {
    createInterface({ input: stream }).on('line', (line) => process.stdout.write(prefix + line + '\n'));
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
