// What `pnpm start` prints once the API answers: the demo merchant's credentials, the two commands of a
// first payout (docs/api.md describes the request and the answers), and how its dashboard owner enrolls.
import { formatRupees } from '@payout/domain';
import type { DemoMerchant } from './demo-merchant.js';

/** Polls GET /readyz until the API answers 200; false when the launcher is stopping first. */
export async function waitUntilReady(apiUrl: string, stopping: () => boolean): Promise<boolean> {
  while (!stopping()) {
    try {
      const answer = await fetch(`${apiUrl}/readyz`, { signal: AbortSignal.timeout(1_000) });
      if (answer.ok) return true;
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return false;
}

export function printFirstPayoutGuide(apiUrl: string, demo: DemoMerchant): void {
  // A TransactionID of this start: sending the same command again replays the payout, it never pays twice.
  const transactionId = String(Date.now());
  const headers = `-H 'Content-Type: application/json' -H 'MID: ${demo.mid}' -H 'Token: ${demo.token}'`;
  const body = JSON.stringify({
    TransactionID: transactionId,
    Amount: '101.00',
    Account: '123456789012',
    Ifsc: 'HDFC0001234',
    Name: 'Asha Verma',
    BankName: 'HDFC Bank',
    Mobile: '9876543210',
    Email: 'asha@example.com',
    Description: 'first payout',
  });
  const lines = [
    '',
    '─── Ready ─────────────────────────────────────────────────────────────────────────────────────',
    `Demo merchant (development only): MID ${demo.mid}, main wallet ₹${formatRupees(demo.availablePaise)}`,
    `Token (new on every start, stored hashed, shown only here): ${demo.token}`,
    '',
    'A first payout (202 PENDING; the simulated bank pays it within seconds):',
    `  curl -s -X POST ${apiUrl}/api/impspayout ${headers} -d '${body}'`,
    '',
    'Its status (Pending, then Success with a UTR in Bankriff):',
    `  curl -s '${apiUrl}/api/check_payout_status?TransactionID=${transactionId}' -H 'MID: ${demo.mid}' -H 'Token: ${demo.token}'`,
    '',
    `The wallet: curl -s '${apiUrl}/api/checkMainWallet?PayoutType=Main_Wallet_Balance' -H 'MID: ${demo.mid}' -H 'Token: ${demo.token}'`,
    '',
    `The merchant dashboard: ${apiUrl}/dashboard (its owner, ${demo.ownerEmail}, has not enrolled yet)`,
    `  1. Open ${apiUrl}/dashboard/enroll, give ${demo.ownerEmail}, and note the fingerprint it shows.`,
    `  2. Signed in to the console as yourself (pnpm cli login), ask for the owner's enrollment and approve it:`,
    `     pnpm cli merchant owner-enroll --mid ${demo.mid} --email ${demo.ownerEmail} --fingerprint <fingerprint>`,
    '  3. Back on the enroll page, set the password and authenticator (docs/dashboard.md, "Enrollment").',
    '',
    `API reference: ${apiUrl}/docs    Operator commands: pnpm cli --help`,
    '───────────────────────────────────────────────────────────────────────────────────────────────',
    '',
  ];
  process.stdout.write(lines.join('\n'));
}
