import { useDistributedTopology } from './use-distributed-topology.js';

// The single box's merchant contract tests, unchanged, against the topology past one machine
// (docs/scaling.md): every database call through PgBouncer in transaction pooling mode, the status and
// wallet lookups on a streaming replica (with the primary behind it), queues and rate limits on a
// three-master Redis Cluster. Each file's API is the real one, configured only by the environment.

await useDistributedTopology();

await import('../api/contract-auth.test.js');
await import('../api/contract-generic.test.js');
await import('../api/contract-imps-payout.test.js');
await import('../api/contract-upi-payout.test.js');
await import('../api/contract-payout-status.test.js');
await import('../api/contract-main-wallet.test.js');
await import('../api/contract-payin-status.test.js');
