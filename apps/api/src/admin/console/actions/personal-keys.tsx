import {
  issuePersonalCredential,
  listPersonalCredentials,
  PersonalCredentialRefusedError,
  recordOperatorAction,
  revokePersonalCredential,
} from '@payout/db';
import { API_KEY_DAYS } from '@payout/domain';
import { exactRouter } from '../console-authorization.js';
import type { ConsoleContext } from '../console-dependencies.js';
import { notFound } from '../console-guards.js';
import { formField } from '../console-session.js';
import { renderPage } from '../render.js';
import { KEYS_PATH, KeysPage } from '../pages/keys.js';
import { actorOf } from './action-helpers.js';

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * A person's own API keys (docs/operations.md, "Security model"): any role makes one for itself (it can
 * do no more than its owner may) and revokes its own; nobody touches another person's.
 */
export function personalKeyRoutes({ deps, allow }: ConsoleContext) {
  const router = exactRouter();
  router.post(
    KEYS_PATH,
    allow('read', async (req, res, viewer) => {
      const label = (formField(req, 'label') ?? '').trim();
      const daysText = (formField(req, 'days') ?? '').trim();
      const days = /^[0-9]{1,3}$/.test(daysText) ? Number(daysText) : Number.NaN;
      const again = async (error: string) =>
        renderPage(
          res,
          422,
          <KeysPage
            viewer={viewer}
            credentials={await listPersonalCredentials(deps.db, viewer.user.username)}
            error={error}
          />,
        );
      if (!label || label.length > 100) {
        await again('Give the key a label of at most 100 characters: it tells your keys apart.');
        return;
      }
      if (!(days >= API_KEY_DAYS.min && days <= API_KEY_DAYS.max)) {
        await again(`A key lives ${API_KEY_DAYS.min} to ${API_KEY_DAYS.max} days.`);
        return;
      }
      let created;
      try {
        created = await issuePersonalCredential(deps.db, {
          username: viewer.user.username,
          kind: 'API_KEY',
          label,
          ttlMs: days * DAY_MS,
        });
      } catch (error) {
        if (!(error instanceof PersonalCredentialRefusedError)) throw error;
        await again(`No key was made: ${error.message}.`);
        return;
      }
      await recordOperatorAction(deps.db, {
        actor: actorOf(viewer),
        action: 'credential.create',
        reason: label,
        detail: { prefix: created.prefix, kind: 'API_KEY', expiresAt: created.expiresAt.toISOString() },
      });
      renderPage(
        res,
        201,
        <KeysPage
          viewer={viewer}
          credentials={await listPersonalCredentials(deps.db, viewer.user.username)}
          created={created}
        />,
      );
    }),
  );
  router.post(
    `${KEYS_PATH}/:prefix/revoke`,
    allow('read', async (req, res, viewer) => {
      const prefix = String(req.params.prefix);
      const revoked =
        /^pg[ks]_[A-Za-z0-9_-]{8}$/.test(prefix) &&
        (await revokePersonalCredential(deps.db, { username: viewer.user.username, prefix }));
      if (!revoked) {
        notFound(res, viewer, `You have no live key ${prefix}.`);
        return;
      }
      await recordOperatorAction(deps.db, {
        actor: actorOf(viewer),
        action: 'credential.revoke',
        reason: 'revoked by its owner',
        detail: { prefix },
      });
      res.redirect(303, KEYS_PATH);
    }),
  );
  return router;
}
