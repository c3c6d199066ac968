import express, { Router, type ErrorRequestHandler, type Express, type RequestHandler, type Response } from 'express';
import type { Logger } from 'pino';
import type { PayoutInstruction } from '@payout/rails';
import { createRegistry } from '@payout/telemetry';
import type { BankLedger } from './bank-ledger.js';
import type { BankPayout } from './bank-payout.js';
import { controlRoutes, type ControlledBank } from './control-routes.js';
import type { FaultSchedule } from './fault-schedule.js';
import { parseInstruction } from './instruction-schema.js';
import type { Garbage } from './magic-values.js';
import type { ReplyScheduler } from './reply-scheduler.js';
import type { SettlementAccount } from './statement-export.js';
import { statementHandler } from './statement-route.js';
import { validationRoutes } from './validation-routes.js';

export interface RailSimAppDeps {
  ledger: BankLedger;
  replies: ReplyScheduler;
  lostReplyMs: number;
  logger: Logger;
  /** The settlement account its statements are for. */
  account: SettlementAccount;
  faults: FaultSchedule;
  /** Uniform draws in [0, 1) deciding which calls an `errorRate` fails. */
  random: () => number;
  /** This bank, and every bank of the process, for the control routes. */
  self: ControlledBank;
  banks: ReadonlyMap<string, ControlledBank>;
}

/** The bank's own API, which its faults affect; statements and the simulator's routes are not. */
const BANK_API = ['/v1/payouts', '/v1/validations'];

/** The simulated bank's HTTP API; docs/rail-sim.md describes it. */
export function createRailSimApp(deps: RailSimAppDeps): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.use(express.json({ limit: '16kb' }));

  app.use(BANK_API, faultGate(deps));
  app.use(payoutRoutes(deps));
  app.get('/v1/statement', statementHandler(deps.ledger, deps.account));
  app.use(validationRoutes(deps));
  app.use(controlRoutes(deps));
  app.use(serviceRoutes(deps.ledger, deps.replies));
  app.use(unknownRoute(deps.replies));
  app.use(errorAnswer(deps));
  return app;
}

/**
 * A bank having trouble, before it looks at the call (docs/rail-sim.md, "Faults"): down (503, or the
 * connection cut while the port closes), or a 5xx for a share of calls. Nothing is recorded.
 */
function faultGate({ faults, random, replies, logger }: RailSimAppDeps): RequestHandler {
  return (req, res, next) => {
    const now = Date.now();
    const current = faults.at(now);
    if (current.down === 'refused') {
      req.socket.destroy();
      return;
    }
    if (current.down === 'unavailable') {
      logger.debug({ path: req.path }, 'answered 503: the bank is down');
      replies.answer(res, 503, { error: 'UNAVAILABLE', message: 'the bank is down; nothing was recorded' });
      return;
    }
    const failure = faults.failsCall(now, random());
    if (failure !== undefined) {
      logger.debug({ path: req.path, status: failure }, 'answered a 5xx: the bank is failing calls');
      replies.answer(res, failure, { error: 'INTERNAL', message: 'bank error; nothing was recorded' });
      return;
    }
    next();
  };
}

/** The bank's payout API: submit a payout, and ask what became of a reference. */
function payoutRoutes(deps: RailSimAppDeps): Router {
  const { ledger, replies, logger, faults } = deps;
  const routes = Router();
  routes.post('/v1/payouts', (req, res) => {
    const parsed = parseInstruction(req.body as unknown);
    if (!parsed.ok) {
      logger.warn({ problems: parsed.problems }, 'malformed payout instruction refused');
      replies.answer(res, 400, {
        error: 'BAD_REQUEST',
        message: 'malformed payout instruction',
        errors: parsed.problems,
      });
      return;
    }
    answerSubmit(deps, res, parsed.instruction);
  });

  routes.get('/v1/payouts/:reference', (req, res) => {
    const { reference } = req.params;
    const now = Date.now();
    const payout = ledger.statusOf(reference, now);
    // A lagging status API has not seen what the bank accepted lately.
    const lagging = payout !== undefined && payout.acceptedAt > now - faults.at(now).statusLagMs;
    if (!payout || lagging) replies.answer(res, 404, { reference, status: 'NOT_FOUND' });
    else replies.answer(res, 200, payoutBody(payout));
  });
  return routes;
}

/** What the bank answers a well-formed submit: its ledger decides, the magic values shape the reply. */
function answerSubmit(
  { ledger, replies, lostReplyMs, logger }: RailSimAppDeps,
  res: Response,
  instruction: PayoutInstruction,
): void {
  const outcome = ledger.submit(instruction);
  const context = { reference: instruction.reference, mode: instruction.mode };
  // A refusal of a reference the bank has already received names that reference.
  const refuseReference = (status: number, error: string, message: string) =>
    replies.answer(res, status, { error, reference: instruction.reference, message });
  switch (outcome.kind) {
    case 'unavailable':
      logger.info(context, 'submit answered 503 (.44: rail unavailable)');
      replies.answer(res, 503, { error: 'UNAVAILABLE', message: 'rail temporarily unavailable; nothing was paid' });
      return;
    case 'conflict':
      logger.warn(context, 'reference reused with a different mode, amount or account');
      refuseReference(409, 'CONFLICT', 'reference already used with a different mode, amount or account');
      return;
    case 'duplicate-refused':
      logger.info(context, 'known reference submitted again: refused as a duplicate (strict bank)');
      refuseReference(400, 'DUPLICATE_REFERENCE', 'reference already received');
      return;
    case 'accepted': {
      const { payout } = outcome;
      if (outcome.duplicate) logger.debug({ ...context, status: payout.status }, 'duplicate submit');
      else logger.info({ ...context, amountPaise: payout.amountPaise.toString(), status: payout.status }, 'payout');
      switch (outcome.reply) {
        case 'normal':
          replies.answer(res, 200, payoutBody(payout));
          return;
        case 'lose':
          replies.holdBack(res, 200, payoutBody(payout), lostReplyMs);
          return;
        default:
          logger.info({ ...context, garbage: outcome.reply }, 'paid, but the reply is garbled');
          answerGarbled(replies, res, outcome.reply, payout);
          return;
      }
    }
  }
}

let registry: ReturnType<typeof createRegistry> | undefined;

/** Not part of a bank's API, so answered without the added latency: stats, health and metrics. */
function serviceRoutes(ledger: BankLedger, replies: ReplyScheduler): Router {
  const routes = Router();
  routes.get('/v1/stats', (_req, res) => replies.now(res, 200, ledger.stats()));
  routes.get('/health', (_req, res) => replies.now(res, 200, { status: 'ok' }));
  // Prometheus: the process's own metrics only, so a scrape says whether the simulator is up (`up`).
  routes.get('/metrics', async (_req, res) => {
    // One registry for the process, however many banks it serves.
    registry ??= createRegistry('rail-sim');
    res.type(registry.contentType).send(await registry.metrics());
  });
  return routes;
}

/** A route the bank does not have: 404. */
function unknownRoute(replies: ReplyScheduler): RequestHandler {
  return (req, res) => {
    replies.now(res, 404, { error: 'NOT_FOUND', message: `no route for ${req.method} ${req.path}` });
  };
}

/** A body the parser refused is the client's fault (4xx); anything else is the simulator's (500). */
function errorAnswer({ replies, logger }: RailSimAppDeps): ErrorRequestHandler {
  return (error: unknown, _req, res, _next) => {
    const status = httpStatusOf(error);
    if (status !== undefined && status < 500) {
      // body-parser's refusals (bad JSON, too large, wrong charset) are the client's fault.
      replies.answer(res, status, { error: 'BAD_REQUEST', message: (error as Error).message });
      return;
    }
    logger.error({ err: error }, 'simulator failed to answer');
    replies.now(res, 500, { error: 'INTERNAL', message: 'simulator error' });
  };
}

function payoutBody(payout: BankPayout): Record<string, unknown> {
  return {
    reference: payout.reference,
    status: payout.status,
    ...(payout.utr === undefined ? {} : { utr: payout.utr }),
    ...(payout.reason === undefined ? {} : { reason: payout.reason }),
    submissions: payout.submissions,
  };
}

// The replies of a bank front end having a bad moment (docs/rail-sim.md, `.91`–`.94`).
function answerGarbled(replies: ReplyScheduler, res: Response, garbage: Garbage, payout: BankPayout): void {
  const json = JSON.stringify(payoutBody(payout));
  switch (garbage) {
    case 'html-502':
      replies.answerText(res, 502, 'text/html', '<html><body><h1>502 Bad Gateway</h1></body></html>');
      break;
    case 'truncated-json':
      replies.answerText(res, 200, 'application/json', json.slice(0, 40));
      break;
    case 'long-utr':
      replies.answer(res, 200, { ...payoutBody(payout), utr: `${payout.utr ?? ''}${'7'.repeat(68)}`.slice(0, 80) });
      break;
    case 'nul-in-json':
      replies.answerText(res, 200, 'application/json', json.replace('"status":"', '"status":"\u0000'));
      break;
  }
}

function httpStatusOf(error: unknown): number | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const status = (error as { status?: unknown }).status;
  return typeof status === 'number' && status >= 400 && status < 600 ? status : undefined;
}
