import type { BankSettings } from '@payout/config';
import type { PrismaClient } from '@payout/db';
import { AppError } from '@payout/domain';
import { optional, validate } from '@payout/contract';
import {
  BANK_CONTROL_ACTIONS,
  bankJson,
  bankOverview,
  setBankControlAction,
  type BankControlAction,
} from '@payout/use-cases';
import { z } from 'zod';
import { methodNotAllowed } from '../../http/error-handler.js';
import { consoleAuthorization, exactRouter } from '../console/console-authorization.js';
import { jsonActions, sendOk, whyField } from './json-actions.js';

export interface BankJsonDeps {
  db: PrismaClient;
  /** The configured banks (`BANKS`, docs/banks.md): the only ones an operator may hold. */
  banks: readonly BankSettings[];
}

const controlBody = z.strictObject({ why: optional(whyField) });

/**
 * The sponsor banks on the admin JSON API (docs/operations.md, "Banks: pausing, draining, pinning"): GET
 * /admin/banks shows each configured bank's hold, health per mode and open downtimes (anyone signed in);
 * POST /admin/banks/:bank/pause|drain|resume holds or releases one (`act`: no money moves, one person,
 * audited) — the same use cases as the console's day page and `pnpm cli bank …`.
 */
export function bankJsonRoutes(deps: BankJsonDeps) {
  const router = exactRouter();
  const action = jsonActions(deps.db);
  const { allowJson } = consoleAuthorization(deps.db);

  router
    .route('/admin/banks')
    .get(
      allowJson('read', async (_req, res) => {
        sendOk(res, { banks: (await bankOverview(deps)).map(bankJson) });
      }),
    )
    .all(methodNotAllowed);

  for (const name of Object.keys(BANK_CONTROL_ACTIONS) as BankControlAction[]) {
    router
      .route(`/admin/banks/:bank/${name}`)
      .post(
        action('act', async ({ req, res, actor, body }) => {
          const bank = String(req.params.bank);
          const { why } = validate(controlBody, body);
          const changed = await setBankControlAction(deps, {
            bank,
            action: name,
            actor,
            reason: why ?? `bank ${name}`,
          });
          switch (changed.kind) {
            case 'unknown-bank':
              throw new AppError(
                'NOT_FOUND',
                `No bank is configured as ${JSON.stringify(bank)} (BANKS names ${changed.known.join(', ')}).`,
              );
            case 'unchanged':
              sendOk(res, { bank, state: changed.state, changed: false });
              return;
            case 'changed':
              sendOk(res, { bank, state: changed.to, from: changed.from, changed: true });
          }
        }),
      )
      .all(methodNotAllowed);
  }
  return router;
}
