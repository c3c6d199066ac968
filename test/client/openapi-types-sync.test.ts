import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { buildOpenApiDocument, type OpenApiDocument } from '@payout/api';
import { CLIENT_TYPES_FILE, generateClientTypes } from '../../scripts/client-types.js';

// The sync check: packages/client's generated types are exactly what the API's OpenAPI document gives
// today. A change to the document without `pnpm client:generate` fails here.

describe('packages/client generated types', () => {
  it('when regenerated in memory from the document the API serves, then they equal the committed file', async () => {
    const committed = await readFile(CLIENT_TYPES_FILE, 'utf8');
    expect(await generateClientTypes(), 'run `pnpm client:generate` and commit the result').toBe(committed);
  });

  it('when the document changes (a new member in a result), then the regenerated types differ from the committed file', async () => {
    const committed = await readFile(CLIENT_TYPES_FILE, 'utf8');
    const changed = structuredClone(buildOpenApiDocument('0.0.0')) as OpenApiDocument & {
      components: { schemas: Record<string, { properties: Record<string, unknown>; required: string[] }> };
    };
    const payoutStatus = changed.components.schemas.PayoutStatus!;
    payoutStatus.properties.sequence = { type: 'integer' };
    payoutStatus.required.push('sequence');

    const regenerated = await generateClientTypes(changed);
    expect(regenerated).not.toBe(committed);
    expect(regenerated).toMatch(/sequence: number;/);
  });
});
