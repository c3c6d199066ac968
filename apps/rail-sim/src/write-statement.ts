// Writes the simulated bank's statement of one day to a file, for `pnpm cli recon statement`:
//   pnpm rail-sim:statement [--date YYYY-MM-DD] [--format csv|mt940|camt053] [--url http://127.0.0.1:4100]
//                           [--out statement.csv]
// It asks a running simulator (GET /v1/statement, docs/rail-sim.md); without --out the file goes to stdout.
import { writeFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { loadConfigOrExit, railSimConfigSchema } from '@payout/config';
import { istDate } from './statement-export.js';

// Only the setting it needs: the simulator's own settings are the running simulator's business.
const config = loadConfigOrExit(railSimConfigSchema.pick({ RAIL_BASE_URL: true }));

const { values } = parseArgs({
  options: {
    date: { type: 'string', default: istDate(Date.now()) },
    format: { type: 'string', default: 'csv' },
    url: { type: 'string', default: config.RAIL_BASE_URL },
    out: { type: 'string' },
  },
});

const query = new URLSearchParams({ date: values.date, format: values.format });
const response = await fetch(`${values.url}/v1/statement?${query.toString()}`);
const text = await response.text();
if (!response.ok) {
  process.stderr.write(`rail-sim answered ${response.status}: ${text}\n`);
  process.exit(2);
}
if (values.out) {
  await writeFile(values.out, text);
  process.stderr.write(`statement of ${values.date} (${values.format}) written to ${values.out}\n`);
} else {
  process.stdout.write(text);
}
