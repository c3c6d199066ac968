import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testPool } from './support/database.js';

// Proves prisma/schema.prisma and the database built by prisma/migrations agree: the same tables,
// columns, types, nullability, enums, unique constraints and foreign keys. Prisma's own `migrate diff`
// needs the native schema engine, which this network cannot fetch; the DMMF comes from Prisma's wasm
// schema parser instead.

interface DmmfField {
  name: string;
  dbName?: string | null;
  kind: 'scalar' | 'enum' | 'object';
  type: string;
  isRequired: boolean;
  isList: boolean;
  isUnique: boolean;
  isId: boolean;
  nativeType?: [string, string[]] | null;
  relationFromFields?: string[];
}
interface DmmfModel {
  name: string;
  dbName: string | null;
  fields: DmmfField[];
  primaryKey: { fields: string[] } | null;
  uniqueIndexes: { fields: string[] }[];
}
interface DmmfEnum {
  name: string;
  dbName: string | null;
  values: { name: string }[];
}

const require = createRequire(import.meta.url);
const wasm = require('@prisma/prisma-schema-wasm') as { get_dmmf(params: string): string };
const schemaText = readFileSync(fileURLToPath(new URL('../prisma/schema.prisma', import.meta.url)), 'utf8');
const dmmf = JSON.parse(wasm.get_dmmf(JSON.stringify({ prismaSchema: [['schema.prisma', schemaText]] }))) as {
  datamodel: { models: DmmfModel[]; enums: DmmfEnum[] };
};
const models = dmmf.datamodel.models;
const enums = dmmf.datamodel.enums;

/**
 * Constraints the database has beyond what schema.prisma can say. Each keeps money safe; the test
 * fails if one disappears, and an unexpected extra one must be added here on purpose.
 */
const DATABASE_ONLY_CHECKS = [
  'statement_break_decisions_position_positive',
  'statement_break_decisions_note_given',
  'statement_break_decisions_payout_when_matched',
  'statement_break_decisions_approval_by_a_person',
  'merchants_mid_format',
  'merchants_limits_positive',
  'wallets_available_non_negative',
  'wallets_reserved_non_negative',
  'payouts_amount_positive',
  'payouts_transaction_id_digits',
  'payouts_ack_no_format',
  'payouts_ifsc_only_for_imps',
  'payouts_status_matches_state',
  'payouts_success_has_bank_reference',
  'payouts_failed_has_reason',
  'payouts_settled_when_terminal',
  'collections_amount_positive',
  'collections_transaction_id_digits',
  'collections_ack_no_format',
  'collections_credited_only_on_success',
  'ledger_entries_source_matches_kind',
  'ledger_entries_leg_direction',
  'webhook_endpoints_url_http',
  'webhook_endpoints_previous_secret_expires',
  'webhook_endpoints_signed_or_held',
  'webhook_deliveries_attempts_non_negative',
  'webhook_deliveries_due_while_pending',
  'webhook_deliveries_finished_when_final',
  'webhook_deliveries_delivered_after_an_attempt',
  'webhook_deliveries_one_subject',
  'webhook_deliveries_cause_fits_subject',
  'webhook_deliveries_placed_unless_replay',
  'unsent_webhook_events_one_subject',
  'unsent_webhook_events_cause_fits_subject',
  'webhook_attempts_attempt_positive',
  'webhook_attempts_status_code_range',
  'webhook_attempts_duration_non_negative',
  'payouts_reversed_has_its_reason',
  'discrepancies_subject_matches_kind',
  'discrepancies_source_known',
  'discrepancies_times_seen_positive',
  'discrepancies_resolved_completely',
  'statement_runs_file_digest_hex',
  'statement_runs_counts_non_negative',
  'console_users_username_format',
  'console_users_enrollment_digest_hex',
  'console_enrollments_digest_hex',
  'console_enrollments_fingerprint_format',
  'console_setup_one_row',
  'bulk_batches_batch_id_digits',
  'bulk_batches_total_range',
  'bulk_batch_items_payout_or_refusal',
  'merchants_queue_window_positive',
  'payouts_queued_has_no_next_check',
  'approval_requests_action_known',
  'approval_requests_decided',
  'approval_requests_expiry_after_request',
  'personal_credentials_digest_hex',
  'personal_credentials_expires_after_creation',
  'merchants_downtime_hold_range',
  'bank_downtimes_status_known',
  'bank_downtimes_resolved_after_since',
  'bank_controls_state_known',
  'merchant_users_email_lower_case',
];
const DATABASE_ONLY_UNIQUE_INDEXES = [
  'merchant_users_one_owner',
  'ledger_entries_one_terminal_entry_per_payout',
  'webhook_deliveries_one_settlement_per_payout',
  'webhook_deliveries_one_reversal_per_payout',
  'webhook_deliveries_downtime_sequence_per_merchant',
  'discrepancies_one_open_per_payout_kind',
  'discrepancies_one_open_per_collection_kind',
  'bank_downtimes_one_open_per_bank_mode',
];

const tableOf = (m: DmmfModel) => m.dbName ?? m.name;
const columnOf = (m: DmmfModel, fieldName: string) => {
  const field = m.fields.find((f) => f.name === fieldName)!;
  return field.dbName ?? field.name;
};
const enumDbName = (name: string) => {
  const e = enums.find((x) => x.name === name)!;
  return e.dbName ?? e.name;
};

/** The PostgreSQL type Prisma gives a field, as format_type() writes it (a list is an array of it). */
function expectedType(field: DmmfField): string {
  if (field.isList) return `${expectedType({ ...field, isList: false })}[]`;
  if (field.kind === 'enum') return `"${enumDbName(field.type)}"`.replace(/^"([a-z_][a-z0-9_]*)"$/, '$1');
  const native = field.nativeType;
  if (native) {
    const [name, args] = native;
    const n = args[0];
    switch (name) {
      case 'VarChar':
        return `character varying(${n})`;
      case 'Char':
        return `character(${n})`;
      case 'Timestamptz':
        return `timestamp(${n ?? 6}) with time zone`;
      case 'Timestamp':
        return `timestamp(${n ?? 6}) without time zone`;
      default:
        throw new Error(`add native type ${name} to this test`);
    }
  }
  const plain: Record<string, string> = {
    Int: 'integer',
    BigInt: 'bigint',
    String: 'text',
    Boolean: 'boolean',
    DateTime: 'timestamp(3) without time zone',
    Json: 'jsonb',
    Decimal: 'numeric(65,30)',
    Float: 'double precision',
  };
  const type = plain[field.type];
  if (!type) throw new Error(`add type ${field.type} to this test`);
  return type;
}

let pool: pg.Pool;
beforeAll(() => {
  pool = testPool();
});
afterAll(async () => {
  await pool.end();
});

async function rows<T extends pg.QueryResultRow>(sql: string, params: unknown[] = []): Promise<T[]> {
  return (await pool.query<T>(sql, params)).rows;
}

describe('schema.prisma and the migrated database', () => {
  it('when listing tables, then they are exactly the models', async () => {
    const tables = await rows<{ tablename: string }>(
      "SELECT tablename FROM pg_tables WHERE schemaname = 'public' AND tablename <> '_prisma_migrations'",
    );
    expect(tables.map((t) => t.tablename).sort()).toEqual(models.map(tableOf).sort());
  });

  it('when listing enums, then names and values agree', async () => {
    const dbEnums = await rows<{ name: string; values: string[] }>(
      `SELECT t.typname AS name, array_agg(e.enumlabel ORDER BY e.enumsortorder)::text[] AS values
         FROM pg_type t JOIN pg_enum e ON e.enumtypid = t.oid GROUP BY t.typname`,
    );
    const expected = enums.map((e) => ({ name: e.dbName ?? e.name, values: e.values.map((v) => v.name) }));
    expect(dbEnums.sort((a, b) => a.name.localeCompare(b.name))).toEqual(
      expected.sort((a, b) => a.name.localeCompare(b.name)),
    );
  });

  describe.each(models.map((m) => [m.name, m] as const))('model %s', (_name, model) => {
    it('when comparing columns, then names, types and nullability agree', async () => {
      const columns = await rows<{ name: string; type: string; nullable: boolean }>(
        `SELECT a.attname AS name, format_type(a.atttypid, a.atttypmod) AS type, NOT a.attnotnull AS nullable
           FROM pg_attribute a
          WHERE a.attrelid = $1::regclass AND a.attnum > 0 AND NOT a.attisdropped`,
        [`"${tableOf(model)}"`],
      );
      const expected = model.fields
        .filter((f) => f.kind !== 'object')
        .map((f) => ({ name: f.dbName ?? f.name, type: expectedType(f), nullable: !f.isRequired }));
      const byName = (a: { name: string }, b: { name: string }) => a.name.localeCompare(b.name);
      expect(columns.sort(byName)).toEqual(expected.sort(byName));
    });

    it('when comparing primary key and unique constraints, then they agree', async () => {
      const indexes = await rows<{ name: string; columns: string[]; primary: boolean; partial: boolean }>(
        `SELECT c.relname AS name, i.indisprimary AS primary, i.indpred IS NOT NULL AS partial,
                array(SELECT a.attname FROM unnest(i.indkey) WITH ORDINALITY k(attnum, n)
                        JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = k.attnum ORDER BY k.n)::text[] AS columns
           FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
          WHERE i.indrelid = $1::regclass AND i.indisunique`,
        [`"${tableOf(model)}"`],
      );
      const primary = model.primaryKey?.fields ?? model.fields.filter((f) => f.isId).map((f) => f.name);
      expect(indexes.filter((i) => i.primary).map((i) => i.columns)).toEqual([primary.map((f) => columnOf(model, f))]);

      const expectedUnique = [
        ...model.fields.filter((f) => f.isUnique).map((f) => [columnOf(model, f.name)]),
        ...model.uniqueIndexes.map((u) => u.fields.map((f) => columnOf(model, f))),
      ].map((cols) => cols.join(','));
      const actualUnique = indexes.filter((i) => !i.primary && !DATABASE_ONLY_UNIQUE_INDEXES.includes(i.name));
      expect(actualUnique.every((i) => !i.partial)).toBe(true);
      expect(actualUnique.map((i) => i.columns.join(',')).sort()).toEqual(expectedUnique.sort());
    });

    it('when comparing foreign keys, then every relation has its constraint', async () => {
      const fks = await rows<{ columns: string[]; target: string }>(
        `SELECT array(SELECT a.attname FROM unnest(c.conkey) WITH ORDINALITY k(attnum, n)
                        JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = k.attnum ORDER BY k.n)::text[] AS columns,
                c.confrelid::regclass::text AS target
           FROM pg_constraint c WHERE c.conrelid = $1::regclass AND c.contype = 'f'`,
        [`"${tableOf(model)}"`],
      );
      const expected = model.fields
        .filter((f) => f.kind === 'object' && f.relationFromFields?.length)
        .map((f) => ({
          columns: f.relationFromFields!.map((name) => columnOf(model, name)),
          target: tableOf(models.find((m) => m.name === f.type)!),
        }));
      const key = (x: { columns: string[]; target: string }) => `${x.columns.join(',')}->${x.target}`;
      expect(fks.map(key).sort()).toEqual(expected.map(key).sort());
    });
  });

  it('when listing CHECK constraints and partial unique indexes, then exactly the documented ones exist', async () => {
    const checks = await rows<{ conname: string }>(
      `SELECT conname FROM pg_constraint c JOIN pg_namespace n ON n.oid = c.connamespace
        WHERE n.nspname = 'public' AND c.contype = 'c'`,
    );
    expect(checks.map((c) => c.conname).sort()).toEqual([...DATABASE_ONLY_CHECKS].sort());
    const partial = await rows<{ relname: string }>(
      `SELECT c.relname FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
         JOIN pg_namespace n ON n.oid = c.relnamespace
        WHERE n.nspname = 'public' AND i.indisunique AND i.indpred IS NOT NULL`,
    );
    expect(partial.map((p) => p.relname).sort()).toEqual([...DATABASE_ONLY_UNIQUE_INDEXES].sort());
  });
});
