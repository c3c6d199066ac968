#!/usr/bin/env node
// `payout-cli …`: the compiled CLI (dist/, from `pnpm build`) under a short name, as the image puts it on
// PATH, so a runbook's command runs in a pod as written (docs/operations.md, "Alerts: what each means and
// what to do"). In a checkout, `pnpm cli …` runs the sources instead.
import '../dist/main.js';
