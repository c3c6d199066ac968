export { createApp, type ApiDependencies } from './app.js';
export { startApi, type RunningApi } from './api-server.js';
export { CredentialStore } from './auth/credential-store.js';
export { buildOpenApiDocument, type OpenApiDocument } from './openapi/openapi-document.js';
export { CoalescingAccepter } from './payouts/coalescing-accepter.js';
export { parseBulkItem } from './bulk/bulk-request-schemas.js';
export { BULK_CSV_COLUMNS, BulkCsvRefused, bulkCsvBatchId, readBulkCsv } from './bulk/bulk-csv.js';
export { bulkAcceptedBody } from '@payout/contract';
export { submitBulkPayout, type BulkBatchState, type SubmitBulkDeps } from './bulk/submit-bulk-payout.js';
