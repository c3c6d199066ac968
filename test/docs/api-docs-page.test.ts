import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import { call, useApi } from '../support/api.js';

// GET /docs in a real browser: Debian's chromium, headless, loads the page from the API started in-process
// and runs Swagger UI from the API's own assets under the page's Content-Security-Policy. The rendered DOM
// must show the merchant operations, and the browser's console must report no CSP violation or failed load.

const CHROMIUM = '/usr/bin/chromium';
const run = promisify(execFile);
const api = useApi();

const MERCHANT_OPERATIONS = [
  'POST /api/impspayout',
  'POST /api/payout',
  'POST /api/payout/cancel',
  'GET /api/check_payout_status',
  'GET /api/payin/status',
  'GET /api/checkMainWallet',
  'POST /api/bulkpayout',
  'GET /api/bulkpayout/status',
  'POST /api/validate/account',
  'POST /api/validate/upi',
  'POST /api/token/rotate',
  'POST /api/token/revoke',
  'POST /api/webhook/secret',
  'GET /api/downtimes',
  'GET /api/payouts',
  'GET /api/statement',
  'GET /api/events',
].sort();
// The two webhooks the gateway sends (docs/webhooks.md), which Swagger UI renders beside the operations.
const WEBHOOKS = ['POST downtime', 'POST payout'];

// helmet 8's default policy, which every other response of the API keeps.
const HELMET_DEFAULT_CSP =
  "default-src 'self';base-uri 'self';font-src 'self' https: data:;form-action 'self';frame-ancestors 'self';" +
  "img-src 'self' data:;object-src 'none';script-src 'self';script-src-attr 'none';" +
  "style-src 'self' https: 'unsafe-inline';upgrade-insecure-requests";

interface Rendered {
  dom: string;
  /** The page's console messages, as chromium logs them. */
  console: string[];
}

/** Loads `url` in headless chromium with a throw-away profile and returns the DOM once the page settled. */
async function render(url: string): Promise<Rendered> {
  const profile = await mkdtemp(join(tmpdir(), 'docs-chromium-'));
  try {
    const { stdout, stderr } = await run(
      CHROMIUM,
      [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-dev-shm-usage',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        `--user-data-dir=${profile}`,
        '--enable-logging=stderr',
        '--v=0',
        // Virtual time runs only while nothing is loading, so this bounds the page's own timers, not I/O.
        '--virtual-time-budget=15000',
        '--dump-dom',
        url,
      ],
      { timeout: 60_000, maxBuffer: 64 * 1024 * 1024 },
    );
    return { dom: stdout, console: stderr.split('\n').filter((line) => line.includes(':CONSOLE')) };
  } finally {
    await rm(profile, { recursive: true, force: true });
  }
}

/** "METHOD /path" of every operation block Swagger UI rendered. */
function renderedOperations(dom: string): string[] {
  return dom
    .split('class="opblock opblock-')
    .slice(1)
    .map((block) => {
      const method = /^[a-z]+/.exec(block)?.[0] ?? '?';
      const path = /data-path="([^"]+)"/.exec(block)?.[1] ?? '?';
      return `${method.toUpperCase()} ${path}`;
    })
    .sort();
}

const troubles = (rendered: Rendered) =>
  rendered.console.filter((line) => /Content Security Policy|Refused to|Failed to load|Uncaught|error/i.test(line));

beforeAll(() => {
  if (!existsSync(CHROMIUM)) {
    throw new Error(`${CHROMIUM} is missing: apt-get install --no-install-recommends chromium (.ci/run does it)`);
  }
});

describe('GET /docs in headless chromium', () => {
  it('when the page is loaded, then Swagger UI renders every merchant operation and the two webhooks with no CSP violation', async () => {
    const page = await render(`${api.current.url}/docs`);
    expect(renderedOperations(page.dom)).toEqual([...MERCHANT_OPERATIONS, ...WEBHOOKS].sort());
    expect(page.dom).toContain('Payout gateway merchant API');
    expect(troubles(page)).toEqual([]);
  });

  it('when an operation is opened by its link, then its request body and results render with no CSP violation', async () => {
    const page = await render(`${api.current.url}/docs#/Payouts/upiPayout`);
    const text = page.dom.replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ');
    expect(text).toContain('Request body');
    expect(text).toContain('"Upi" : "asha.kumar@okhdfc"');
    expect(text).toContain('MP006 - Your transaction is in progress');
    expect(text).toContain('Amount and TransactionID are JSON numbers');
    expect(troubles(page)).toEqual([]);
  });
});

describe('GET /docs over HTTP', () => {
  it('when fetched without credentials, then the page loads only this origin and has its own strict CSP', async () => {
    const res = await call(api.current, '/docs');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    const csp = res.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("connect-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toMatch(/unsafe-inline|unsafe-eval|https:|\*/);

    const references = [...res.text.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]!);
    expect(references.length).toBeGreaterThanOrEqual(4);
    for (const reference of references) {
      expect(reference, 'a local asset').toMatch(/^\/docs\/assets\//);
      const asset = await call(api.current, reference);
      expect(asset.status, reference).toBe(200);
    }
    expect(res.text).not.toMatch(/<script>/);
  });

  it('when any other response is sent, then it keeps helmet’s default CSP', async () => {
    for (const path of ['/openapi.json', '/api/checkMainWallet', '/docs/assets/swagger-ui-bundle.js', '/nowhere']) {
      const res = await call(api.current, path);
      expect(res.headers.get('content-security-policy'), path).toBe(HELMET_DEFAULT_CSP);
    }
  });

  it('when a file of swagger-ui-dist that the page does not use is asked for, then 404', async () => {
    for (const path of [
      '/docs/assets/index.html',
      '/docs/assets/swagger-initializer.js',
      '/docs/assets/../package.json',
    ]) {
      expect((await call(api.current, path)).status, path).toBe(404);
    }
  });
});
