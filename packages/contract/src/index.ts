// The wire contract (docs/api.md, "Response bodies"): each body merchants receive, defined once as a zod
// schema carrying its documentation, next to the function that builds it from the domain's values and is
// typed by it. The API answers with these builders, the worker signs webhook bodies built here, and the
// OpenAPI document (apps/api/src/openapi/) is generated from these schemas.
export { DIGITS_1_TO_30, type OnTheWire } from './members.js';
export * from './payout-result.js';
export * from './lookups.js';
export * from './errors.js';
export * from './bulk.js';
export * from './beneficiary-validation.js';
export * from './webhook-payload.js';
