import { fileURLToPath } from 'node:url';
import openapiTS, { astToString } from 'openapi-typescript';
import { format, resolveConfig } from 'prettier';
import ts from 'typescript';
import { buildOpenApiDocument, type OpenApiDocument } from '@payout/api';
import { SCHEDULED_MESSAGE_PATTERN, SCHEDULED_MESSAGE_PREFIX } from '@payout/domain';

/** Where packages/client keeps the types generated from the merchant API's OpenAPI document. */
export const CLIENT_TYPES_FILE = fileURLToPath(new URL('../packages/client/src/generated/openapi.ts', import.meta.url));

const HEADER = `// Generated from the merchant API's OpenAPI document (GET /openapi.json) by \`pnpm client:generate\`.
// Do not edit: change apps/api/src/openapi/ and regenerate. test/client/openapi-types-sync.test.ts fails
// when this file and the document disagree.
`;

/**
 * The text of packages/client/src/generated/openapi.ts for the document the API serves now, formatted as
 * the repository formats TypeScript (so lint passes on it). The document's `info.version` is not part of
 * the types, so any version string gives the same text.
 */
export async function generateClientTypes(document: OpenApiDocument = buildOpenApiDocument('0.0.0')): Promise<string> {
  const ast = await openapiTS(document as unknown as Parameters<typeof openapiTS>[0], {
    silent: true,
    transform: (schema) =>
      'pattern' in schema && schema.pattern === SCHEDULED_MESSAGE_PATTERN.source ? scheduledMessageType() : undefined,
  });
  const options = await resolveConfig(CLIENT_TYPES_FILE);
  return format(HEADER + astToString(ast), { ...options, filepath: CLIENT_TYPES_FILE });
}

/**
 * The scheduled payout's message as a template literal type, `MP006 - Your transaction is scheduled for ${string}`:
 * openapi-typescript writes a string with a pattern as plain `string`, which would swallow the listed messages
 * it stands beside in a union (docs/api.md, "Scheduling a payout").
 */
function scheduledMessageType(): ts.TypeNode {
  const f = ts.factory;
  return f.createTemplateLiteralType(f.createTemplateHead(SCHEDULED_MESSAGE_PREFIX), [
    f.createTemplateLiteralTypeSpan(f.createKeywordTypeNode(ts.SyntaxKind.StringKeyword), f.createTemplateTail('')),
  ]);
}
