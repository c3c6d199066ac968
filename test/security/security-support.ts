import { Writable } from 'node:stream';
import { Redis } from 'ioredis';
import { pino, type Logger } from 'pino';
import { REDACTED_PATHS } from '@payout/telemetry';
import { newMerchantToken } from '@payout/client';
import { askedAndApproved, cliJsonAs } from '../support/approvals.js';

/**
 * A logger configured as the apps configure theirs (createLogger in @payout/telemetry: the same redact
 * paths and censor), at the most talkative level, writing every line to memory so a test can search it.
 */
export function memoryLogger(app: string): { logger: Logger; lines: string[] } {
  const lines: string[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(chunk.toString());
      done();
    },
  });
  const logger = pino({ level: 'trace', base: { app }, redact: { paths: REDACTED_PATHS, censor: '[redacted]' } }, sink);
  return { logger, lines };
}

export interface IssuedMerchant {
  mid: string;
  /** Both active tokens, as the merchant holds them: the one it made, and the one it rotated to. */
  tokens: [string, string];
}

/**
 * A merchant onboarded the way it is in production (docs/operations.md, "A merchant's token and webhook
 * secret"): it makes its token itself; one person asks for the merchant with the token's digest and another
 * approves, then another funds its wallet the same way, each through the CLI with their own key at the
 * admin listener; the merchant then rotates to a second token through its own API at `api.url`.
 */
export async function issueMerchant(
  api: { url: string; adminUrl: string },
  name: string,
  balance: string,
): Promise<IssuedMerchant> {
  const cli = cliJsonAs(api.adminUrl);
  const made = await newMerchantToken();
  const created = await askedAndApproved(
    cli,
    'merchant',
    'create',
    '--name',
    name,
    '--token-digest',
    made.sha256,
    '--token-prefix',
    made.prefix,
  );
  const { mid } = created.outcome as { mid: string };
  await askedAndApproved(cli, 'wallet', 'credit', '--mid', mid, '--amount', balance, '--reference', `opening-${mid}`);
  const rotated = await fetch(`${api.url}/api/token/rotate`, {
    method: 'POST',
    headers: { MID: mid, Token: made.token, 'Content-Type': 'application/json' },
    body: '{}',
  });
  if (rotated.status !== 200) throw new Error(`rotating ${mid}'s token answered ${rotated.status}`);
  const { token } = (await rotated.json()) as { token: string };
  return { mid, tokens: [made.token, token] };
}

/** Every value stored in Redis under a key prefix, as text, with its key: hashes, lists, sets, streams, strings. */
export async function redisContents(redisUrl: string, prefix: string): Promise<Map<string, string>> {
  const redis = new Redis(redisUrl, { lazyConnect: true, maxRetriesPerRequest: 1 });
  await redis.connect();
  const contents = new Map<string, string>();
  try {
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 1000);
      cursor = next;
      for (const key of keys) {
        const type = await redis.type(key);
        let value: unknown;
        if (type === 'string') value = await redis.get(key);
        else if (type === 'hash') value = await redis.hgetall(key);
        else if (type === 'list') value = await redis.lrange(key, 0, -1);
        else if (type === 'set') value = await redis.smembers(key);
        else if (type === 'zset') value = await redis.call('ZRANGE', key, '0', '-1', 'WITHSCORES');
        else if (type === 'stream') value = await redis.xrange(key, '-', '+');
        contents.set(key, JSON.stringify({ type, value }));
      }
    } while (cursor !== '0');
  } finally {
    redis.disconnect();
  }
  return contents;
}

/** The ways a token could leak in part: whole, without its "pgt_" prefix, or its secret half. */
export function tokenFragments(token: string): string[] {
  const secret = token.replace(/^pgt_/, '');
  return [token, secret, secret.slice(Math.floor(secret.length / 2))];
}
