import { faultSwitchSchema, type FaultSwitch } from '@payout/config';
import { Router, type Response } from 'express';
import type { Logger } from 'pino';
import type { FaultReport } from './fault-schedule.js';
import type { ReplyScheduler } from './reply-scheduler.js';

/** A simulated bank as the control routes see it: its faults, read and switched. */
export interface ControlledBank {
  name: string;
  /** Its settlement account's number. */
  account: string;
  url(): string | undefined;
  report(): FaultReport;
  switchTo(change: FaultSwitch): void;
}

/**
 * The simulator's own control routes, not a bank's (docs/rail-sim.md, "Faults"): answered at once, whatever
 * the bank's faults. `/sim/faults` is this port's bank; `/sim/banks/<name>/faults` any bank of the process,
 * so a bank whose port refuses connections is switched back through another's.
 */
export function controlRoutes({
  self,
  banks,
  replies,
  logger,
}: {
  self: ControlledBank;
  banks: ReadonlyMap<string, ControlledBank>;
  replies: ReplyScheduler;
  logger: Logger;
}): Router {
  const routes = Router();
  const switchFaults = (bank: ControlledBank, body: unknown, res: Response) => {
    const parsed = faultSwitchSchema.safeParse(body ?? {});
    if (!parsed.success) {
      replies.now(res, 400, {
        error: 'BAD_REQUEST',
        message: 'not a fault switch (docs/rail-sim.md, "Faults")',
        errors: parsed.error.issues.map((issue) => ({ field: issue.path.join('.'), message: issue.message })),
      });
      return;
    }
    logger.info({ bank: bank.name, faults: parsed.data }, 'faults switched through the control route');
    bank.switchTo(parsed.data);
    replies.now(res, 200, { bank: bank.name, ...bank.report() });
  };
  const named = (name: string, res: Response): ControlledBank | undefined => {
    const bank = banks.get(name);
    if (!bank) replies.now(res, 404, { error: 'NOT_FOUND', message: `no simulated bank ${name}` });
    return bank;
  };

  routes.get('/sim/faults', (_req, res) => replies.now(res, 200, { bank: self.name, ...self.report() }));
  routes.post('/sim/faults', (req, res) => switchFaults(self, req.body, res));
  routes.get('/sim/banks', (_req, res) =>
    replies.now(res, 200, {
      banks: [...banks.values()].map((bank) => ({
        name: bank.name,
        url: bank.url() ?? null,
        account: bank.account,
        faults: bank.report().now,
      })),
    }),
  );
  routes.get('/sim/banks/:name/faults', (req, res) => {
    const bank = named(req.params.name, res);
    if (bank) replies.now(res, 200, { bank: bank.name, ...bank.report() });
  });
  routes.post('/sim/banks/:name/faults', (req, res) => {
    const bank = named(req.params.name, res);
    if (bank) switchFaults(bank, req.body, res);
  });
  return routes;
}
