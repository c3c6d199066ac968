/** A command was called wrongly (bad or missing argument): the CLI exits with status 2. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}

/** The command ran but could not do what was asked (unknown MID, conflicting reference): exit status 1. */
export class CommandFailure extends Error {
  override readonly name = 'CommandFailure';
  /** Already reported on stdout (e.g. as JSON): exit 1 without a line on stderr. */
  readonly silent: boolean;
  constructor(message: string, options: { silent?: boolean } = {}) {
    super(message);
    this.silent = options.silent ?? false;
  }
}
