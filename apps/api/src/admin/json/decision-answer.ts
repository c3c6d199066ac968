import type { Response } from 'express';
import { AppError } from '@payout/domain';
import { approvalJson, type DecideOutcome } from '@payout/use-cases';
import { sendJson } from '../../http/send-json.js';

/** The answer to a decision on a request, on every JSON door that takes one (approvals, people in setup). */
export function sendDecision(res: Response, outcome: DecideOutcome): void {
  switch (outcome.kind) {
    case 'second-factor':
      if (outcome.waitSeconds !== undefined) {
        throw new AppError('RATE_LIMITED', outcome.why, { details: { retryAfterSeconds: outcome.waitSeconds } });
      }
      throw new AppError('FORBIDDEN', `Nothing changed: ${outcome.why}`);
    case 'not-found':
      throw new AppError('NOT_FOUND', 'No such request.');
    case 'refused':
      throw new AppError('FORBIDDEN', `Not allowed: ${outcome.why}.`);
    case 'expired':
      throw new AppError('CONFLICT', 'The request has expired; nothing changed.');
    case 'failed':
      throw new AppError('CONFLICT', `Refused on approval, nothing changed: ${outcome.why}.`);
    default:
      sendJson(res, 200, {
        error: false,
        status_code: 200,
        status: 'OK',
        approval: approvalJson(outcome.request),
      });
  }
}
