import { STATEMENT_HEADER } from '../statement-csv.js';
import { splitFields } from './csv-fields.js';
import { camt053Version } from './camt053.js';
import { looksLikeMt940 } from './mt940.js';

/** The layouts a statement file can have; camt.053's version is the reader's to tell. */
export type StatementLayout = 'mt940' | 'camt.053' | 'canonical-csv' | 'bank-csv';

/**
 * Which layout a file is, from its content alone (docs/reconciliation-formats.md): the camt.053 namespace,
 * MT940's `:20:` and `:60F:`/`:60M:` tags, the canonical CSV header; anything else can only be a bank's
 * own export, which is read with that bank's profile.
 */
export function detectLayout(file: string): StatementLayout {
  const text = file.replace(/^\uFEFF/, '');
  if (camt053Version(text) !== undefined) return 'camt.053';
  if (looksLikeMt940(text)) return 'mt940';
  const firstLine = text.split(/\r?\n/, 1)[0] ?? '';
  const header = splitFields(firstLine, ',');
  if (header.ok && header.fields.map((f) => f.trim().toLowerCase()).join(',') === STATEMENT_HEADER.join(',')) {
    return 'canonical-csv';
  }
  return 'bank-csv';
}
