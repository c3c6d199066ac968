export { createRailSim, type RailSim, type RailSimOptions, type RailSimServer } from './rail-sim.js';
export type { BankStats } from './bank-ledger.js';
export type { BankPayout, BankStatus } from './bank-payout.js';
export { StateFileError } from './state-journal.js';
