// The wire contract (docs/api.md, "Response bodies"): each body merchants receive, defined once as a zod
// schema carrying its documentation, next to the function that builds it from the domain's values and is
// typed by it. The API answers with these builders, the worker signs webhook bodies built here, and the
// OpenAPI document (apps/api/src/openapi/) is generated from these schemas.
//
// The request side (docs/api.md, "Request members"): each request body's schema, its field rules and
// how it is read into the domain's payout request; a member a schema refuses is the contract's 422.
export * from './payout-result.js';
export * from './lookups.js';
export * from './errors.js';
export * from './bulk.js';
export * from './beneficiary-validation.js';
export * from './webhook-payload.js';
export * from './event-feed.js';
export * from './downtimes.js';
export * from './tokens.js';
export * from './payout-list.js';
export * from './statement.js';
export {
  accountNumberField,
  amountField,
  digits,
  emailField,
  fieldErrors,
  ifscField,
  mobileField,
  optional,
  text,
  transactionIdField,
  upiField,
  type FieldError,
} from './requests/request-fields.js';
export { parseQuery, validate } from './requests/validate.js';
export * from './requests/payout-requests.js';
export * from './requests/bulk-requests.js';
