import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { get } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testPrisma } from '../support/database.js';
import { makeMerchant, type TestMerchant } from '../support/factories.js';
import { call, useApi } from '../support/api.js';

// The served document passes Redocly's recommended rules, and its `servers` entry is the API that served
// it, so a client generated from the document works against that server without configuration.

const REDOCLY = fileURLToPath(new URL('../../node_modules/.bin/redocly', import.meta.url));
const run = promisify(execFile);
const prisma = testPrisma();
const api = useApi();
const scratch = mkdtempSync(join(tmpdir(), 'openapi-lint-'));
let merchant: TestMerchant;
let document: { servers?: { url: string }[] };
let documentText: string;

beforeAll(async () => {
  const res = await call(api.current, '/openapi.json');
  expect(res.status).toBe(200);
  documentText = res.text;
  document = res.json;
  merchant = await makeMerchant(prisma, { balance: '10.00' });
});
afterAll(async () => {
  rmSync(scratch, { recursive: true, force: true });
  await prisma.$disconnect();
});

describe('GET /openapi.json under redocly lint', () => {
  it('when linted with the recommended rules, then there is no error and no warning', async () => {
    const file = join(scratch, 'openapi.json');
    writeFileSync(file, documentText);
    // Redocly exits non-zero on any error; the JSON report also counts warnings.
    const { stdout } = await run(REDOCLY, ['lint', file, '--format', 'json'], {
      cwd: scratch,
      env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', NO_COLOR: '1' },
    });
    const report = JSON.parse(stdout) as { totals: { errors: number; warnings: number }; problems: unknown[] };
    expect(report.problems).toEqual([]);
    expect(report.totals).toMatchObject({ errors: 0, warnings: 0 });
  });

  it('when a client calls the server the document names, then it reaches this API', async () => {
    const server = document.servers?.[0]?.url;
    expect(server).toBe(api.current.url);
    const answer = await fetch(`${server}/api/checkMainWallet?PayoutType=Main_Wallet_Balance`, {
      headers: { MID: merchant.mid, Token: merchant.token },
    });
    expect(answer.status).toBe(200);
    expect(await answer.json()).toMatchObject({ mainwallet: '10.00' });
  });

  it('when the Host header is not a plain host, then the document names the relative server "/" instead of echoing it', async () => {
    // fetch() will not send a Host of our choosing; node:http will.
    const text = await new Promise<string>((resolve, reject) => {
      get(`${api.current.url}/openapi.json`, { headers: { Host: 'evil.example/<script>' } }, (res) => {
        let chunks = '';
        res.setEncoding('utf8').on('data', (chunk: string) => (chunks += chunk));
        res.on('end', () => resolve(chunks));
      }).on('error', reject);
    });
    const body = JSON.parse(text) as typeof document;
    expect(body.servers).toEqual([{ url: '/', description: 'The server that served this document' }]);
  });
});
