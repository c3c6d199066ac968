/**
 * Runs a coalescer's flush once on the next turn of the event loop, however many times it is asked for
 * before then: requests that arrived together then share a statement (the API's coalescing-accepter.ts and
 * coalescing-lookup.ts, the worker's coalescing-settler.ts).
 */
export class NextTurnFlush {
  private scheduled = false;

  constructor(private readonly flush: () => void) {}

  request(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      this.flush();
    });
  }
}
