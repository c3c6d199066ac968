// The payout result and the payout status lookup's body are defined, with their schemas, in the wire
// contract (packages/contract, docs/api.md "Payout results"); the API, bulk and webhooks share them.
export { payoutResult, payoutStatusBody } from '@payout/contract';
