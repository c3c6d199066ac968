import { writeFile } from 'node:fs/promises';
import { CLIENT_TYPES_FILE, generateClientTypes } from './client-types.js';

// pnpm client:generate — rewrites packages/client/src/generated/openapi.ts from the API's OpenAPI builder.
await writeFile(CLIENT_TYPES_FILE, await generateClientTypes());
console.log(`wrote ${CLIENT_TYPES_FILE}`);
