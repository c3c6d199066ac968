// Writes the simulated bank's statement of one day to a file, for `pnpm cli recon statement`:
//   pnpm rail-sim:statement [--date YYYY-MM-DD] [--url http://127.0.0.1:4100] [--out statement.csv]
// It asks a running simulator (GET /v1/statement); without --out the CSV goes to stdout.
import { writeFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { istDate } from './statement-export.js';

const { values } = parseArgs({
  options: {
    date: { type: 'string', default: istDate(Date.now()) },
    url: { type: 'string', default: process.env.RAIL_BASE_URL ?? 'http://127.0.0.1:4100' },
    out: { type: 'string' },
  },
});

const response = await fetch(`${values.url}/v1/statement?date=${encodeURIComponent(values.date)}`);
const text = await response.text();
if (!response.ok) {
  process.stderr.write(`rail-sim answered ${response.status}: ${text}\n`);
  process.exit(2);
}
if (values.out) {
  await writeFile(values.out, text);
  process.stderr.write(`statement of ${values.date} written to ${values.out}\n`);
} else {
  process.stdout.write(text);
}
