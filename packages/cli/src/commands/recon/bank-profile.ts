import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { parseBankProfile, type BankCsvProfile } from '@payout/recon';
import { UsageError } from '../../usage-error.js';

// The profiles that ship with packages/recon, found from this file in src/ and in dist/ alike.
const SHIPPED_PROFILES = new URL('../../../../recon/profiles/', import.meta.url);

/** `--profile`: a shipped profile by its name, or a profile file by its path. */
export async function bankProfile(nameOrPath: string): Promise<BankCsvProfile> {
  const shipped = /^[a-z0-9][a-z0-9-]*$/i.test(nameOrPath);
  const path = shipped ? fileURLToPath(new URL(`${nameOrPath}.json`, SHIPPED_PROFILES)) : nameOrPath;
  let json: string;
  try {
    json = await readFile(path, 'utf8');
  } catch (error) {
    const what = shipped ? `no shipped profile "${nameOrPath}"` : `cannot read --profile ${nameOrPath}`;
    throw new UsageError(`${what}: ${(error as Error).message}`);
  }
  const parsed = parseBankProfile(json);
  if (!parsed.ok) throw new UsageError(`--profile ${nameOrPath}: ${parsed.reason}`);
  return parsed.profile;
}
