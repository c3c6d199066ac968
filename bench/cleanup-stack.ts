/**
 * Undo actions (stop a process, drop the database, delete queue keys) run last-in first-out, each once,
 * whether the bench finishes, fails or is interrupted.
 */
export class CleanupStack {
  private readonly actions: { name: string; run: () => Promise<void> }[] = [];
  private running: Promise<void> | undefined;

  /** Registers an undo action; the returned function runs it now (and takes it off the stack). */
  push(name: string, run: () => Promise<void>): () => Promise<void> {
    const action = { name, run: once(run) };
    this.actions.push(action);
    return async () => {
      const index = this.actions.indexOf(action);
      if (index >= 0) this.actions.splice(index, 1);
      await action.run();
    };
  }

  /** Runs every action still registered; a failing one is reported and the rest still run. */
  runAll(report: (line: string) => void): Promise<void> {
    this.running ??= (async () => {
      while (this.actions.length > 0) {
        const action = this.actions.pop()!;
        try {
          await action.run();
        } catch (error) {
          report(`cleanup "${action.name}" failed: ${(error as Error).message}`);
        }
      }
    })();
    return this.running;
  }
}

function once(run: () => Promise<void>): () => Promise<void> {
  let result: Promise<void> | undefined;
  return () => (result ??= run());
}
