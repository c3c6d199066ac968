export { ConfigError, loadConfig, loadConfigOrExit } from './load-config.js';
export {
  DEVELOPMENT_SECOND_FACTOR_KEY,
  DEVELOPMENT_SECRET,
  isDevelopmentOrTest,
  nodeEnvSchema,
  secondFactorOf,
  webhookDestinationPolicy,
} from './settings.js';
export {
  apiConfigSchema,
  cliConfigSchema,
  railSimConfigSchema,
  workerConfigSchema,
  type ApiConfig,
  type CliConfig,
  type RailSimConfig,
  type WorkerConfig,
} from './app-configs.js';
export { BANK_NAME_PATTERN, bankSettingsSchema, DEFAULT_BANK_NAME, type BankSettings } from './banks.js';
export {
  bankFaultsSchema,
  faultSwitchSchema,
  faultWindowSchema,
  journalOf,
  simulatedAccountAt,
  simulatedBanksOf,
  type BankFaultSetting,
  type FaultSwitch,
  type FaultWindow,
  type SimulatedBank,
} from './rail-sim-banks.js';
