import { defineConfig } from 'prisma/config';

// The Prisma CLI is used here only for `prisma generate` (scripts/prisma-generate.mjs); migrations are
// applied by packages/db's own runner, which keeps Prisma's `_prisma_migrations` bookkeeping.
export default defineConfig({
  schema: 'prisma/schema.prisma',
  migrations: { path: 'prisma/migrations' },
  datasource: {
    url: process.env.DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/payouts',
  },
});
