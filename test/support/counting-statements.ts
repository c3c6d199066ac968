import type { PrismaClient } from '@payout/db';

/**
 * The real client with every raw statement sent through it counted. Wrapped, it is not the client
 * createPrismaClient made, so packages/db's sqlRows sends its statements through Prisma's $queryRaw, which
 * is what is counted; PostgreSQL still answers every one.
 */
export function countingStatements(client: PrismaClient): { client: PrismaClient; statements: () => number } {
  let statements = 0;
  const proxy = new Proxy(client, {
    get(target, property, receiver) {
      if (property !== '$queryRaw') return Reflect.get(target, property, receiver) as unknown;
      return (...args: Parameters<PrismaClient['$queryRaw']>) => {
        statements++;
        return target.$queryRaw(...args);
      };
    },
  });
  return { client: proxy, statements: () => statements };
}
