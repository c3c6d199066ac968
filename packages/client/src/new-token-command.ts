#!/usr/bin/env node
// `npx payout-token` (the package's bin): makes you a new API token on this machine and prints it with the
// two lines the gateway needs, its prefix and SHA-256 (README, "Your token"). `--json` prints one JSON
// object instead. Nothing is sent anywhere.
/* eslint-disable no-console -- a command-line program: what it makes goes to the terminal */
import { newMerchantToken } from './merchant-token.js';

const args = (globalThis as { process?: { argv?: string[] } }).process?.argv?.slice(2) ?? [];
const made = await newMerchantToken();
if (args.includes('--json')) {
  console.log(JSON.stringify(made));
} else {
  console.log(
    [
      'Your new API token. Keep it secret, in your own systems; it is shown nowhere else, and the gateway never sees it:',
      '',
      `  ${made.token}`,
      '',
      'Give the gateway only these two lines (they do not work as a token):',
      '',
      `  prefix: ${made.prefix}`,
      `  sha256: ${made.sha256}`,
    ].join('\n'),
  );
}
