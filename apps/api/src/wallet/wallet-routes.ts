import { Router } from 'express';
import { mainWalletBody } from '@payout/contract';
import { AppError } from '@payout/domain';
import { lookUpWallet, type PrismaClient } from '@payout/db';
import { merchantOf } from '../auth/authenticate.js';
import { merchantAccess, type MerchantAccessDeps } from '../auth/merchant-access.js';
import { MESSAGES } from '../http/error-responses.js';
import { methodNotAllowed } from '../http/error-handler.js';
import { sendJson } from '../http/send-json.js';

const MAIN_WALLET_BALANCE = 'Main_Wallet_Balance';

/** GET /api/checkMainWallet?PayoutType=Main_Wallet_Balance: the available balance of the main wallet. */
export function walletRoutes(
  deps: { db: PrismaClient; readDb?: PrismaClient | undefined } & MerchantAccessDeps,
): Router {
  const router = Router();
  router
    .route('/api/checkMainWallet')
    .get(...merchantAccess(deps, 'BAD REQUEST'), async (req, res) => {
      if (req.query.PayoutType !== MAIN_WALLET_BALANCE) throw new AppError('BAD_REQUEST', MESSAGES.invalidPayoutType);
      const wallet = await lookUpWallet({ primary: deps.db, replica: deps.readDb }, merchantOf(res).id);
      if (!wallet) throw new AppError('NOT_FOUND', MESSAGES.walletNotFound);
      sendJson(res, 200, mainWalletBody(wallet.availablePaise));
    })
    .all(methodNotAllowed);
  return router;
}
