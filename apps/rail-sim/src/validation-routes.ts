import { Router, type Response } from 'express';
import type { Logger } from 'pino';
import { z } from 'zod';
import { accountScenario, upiScenario, type ValidationScenario } from './beneficiary-directory.js';
import type { ReplyScheduler } from './reply-scheduler.js';

const accountQuestion = z.object({
  account: z.string().regex(/^[0-9]{9,18}$/),
  ifsc: z.string().regex(/^[A-Z]{4}0[A-Z0-9]{6}$/),
});
const upiQuestion = z.object({ upi: z.string().regex(/^[A-Za-z0-9._-]{2,256}@[A-Za-z]{2,64}$/) });

/** The bank's penny-less beneficiary checks: `POST /v1/validations/account` and `POST /v1/validations/upi`. */
export function validationRoutes({
  replies,
  lostReplyMs,
  logger,
}: {
  replies: ReplyScheduler;
  lostReplyMs: number;
  logger: Logger;
}): Router {
  const router = Router();

  function answer(res: Response, scenario: ValidationScenario, what: string): void {
    logger.info({ what, outcome: scenario.kind }, 'beneficiary validation');
    switch (scenario.kind) {
      case 'valid':
        replies.answer(res, 200, { status: 'VALID', registered_name: scenario.registeredName });
        return;
      case 'invalid':
        replies.answer(res, 200, { status: 'INVALID' });
        return;
      case 'time-out':
        replies.holdBack(res, 200, { status: 'INVALID' }, lostReplyMs);
        return;
    }
  }

  // A question the bank cannot read is a 400; any other gets the scenario its magic value picks.
  const question = <Q>(path: string, schema: z.ZodType<Q>, refusal: string, scenarioOf: (q: Q) => ValidationScenario) =>
    router.post(path, (req, res) => {
      const parsed = schema.safeParse(req.body);
      if (!parsed.success) replies.answer(res, 400, { error: 'BAD_REQUEST', message: refusal });
      else answer(res, scenarioOf(parsed.data), path.slice(path.lastIndexOf('/') + 1));
    });
  question('/v1/validations/account', accountQuestion, 'account must be 9 to 18 digits and ifsc an IFSC', (q) =>
    accountScenario(q.account),
  );
  question('/v1/validations/upi', upiQuestion, 'upi must be a UPI address', (q) => upiScenario(q.upi));

  return router;
}
