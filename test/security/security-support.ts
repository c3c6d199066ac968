import { Writable } from 'node:stream';
import { Redis } from 'ioredis';
import { pino, type Logger } from 'pino';
import { REDACTED_PATHS } from '@payout/telemetry';
import { askedAndApproved, cliJsonAs, fourEyes } from '../support/approvals.js';

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
  /** Both active tokens, as the operator handed them to the merchant. */
  tokens: [string, string];
}

/**
 * A merchant issued the way operators issue them: created, funded and given a second token with the CLI
 * through the admin listener at `adminUrl`, each as a person with their own key — the credit and the token
 * each asked for by one person and approved by another.
 */
export async function issueMerchant(adminUrl: string, name: string, balance: string): Promise<IssuedMerchant> {
  const cli = cliJsonAs(adminUrl);
  const { makerKey } = await fourEyes();
  const created = await cli(makerKey, 'merchant', 'create', '--name', name);
  const mid = String(created.mid);
  await askedAndApproved(cli, 'wallet', 'credit', '--mid', mid, '--amount', balance, '--reference', `opening-${mid}`);
  const rotated = await askedAndApproved(cli, 'token', 'rotate', '--mid', mid);
  return { mid, tokens: [String(created.token), String(rotated.token)] };
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
