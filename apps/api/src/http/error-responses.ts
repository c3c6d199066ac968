// The error bodies' status texts and messages are part of the wire contract (packages/contract,
// docs/api.md "Errors at large"); the API's middleware and routes take them from here.
export { MESSAGES, STATUS_TEXT } from '@payout/contract';
