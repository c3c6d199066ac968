import type { Response } from 'express';

interface PendingReply {
  timer: NodeJS.Timeout;
  send: () => void;
  /** A held-back reply is one the network "loses": on close it is dropped, not sent. */
  lost: boolean;
  response: Response;
}

/**
 * Sends the simulator's answers after the configured latency, and holds back the ones that are meant to be
 * lost. It knows every answer still waiting, so closing the server never waits out a delay: answers that
 * were only slow are sent at once, lost ones have their connection cut.
 */
export class ReplyScheduler {
  readonly #pending = new Set<PendingReply>();
  #closing = false;

  /** `latencyMs` is asked at each answer: a bank's latency may change while it runs (a slow-bank fault). */
  constructor(private readonly latencyMs: () => number) {}

  /** Answers after the simulated latency. */
  answer(response: Response, statusCode: number, body: unknown): void {
    this.#schedule(response, this.latencyMs(), false, statusCode, body);
  }

  /** Answers a body that is not (or not quite) JSON after the simulated latency: a garbled reply. */
  answerText(response: Response, statusCode: number, contentType: string, text: string): void {
    this.#schedule(response, this.latencyMs(), false, statusCode, new RawText(contentType, text));
  }

  /** Holds the answer back for `holdMs` (plus the latency); a client that waits less never sees it. */
  holdBack(response: Response, statusCode: number, body: unknown, holdMs: number): void {
    this.#schedule(response, this.latencyMs() + holdMs, true, statusCode, body);
  }

  /** Answers at once: for the simulator's own endpoints, which are not the bank's. */
  now(response: Response, statusCode: number, body: unknown): void {
    this.#send(response, statusCode, body);
  }

  close(): void {
    this.#closing = true;
    for (const reply of [...this.#pending]) {
      clearTimeout(reply.timer);
      this.#pending.delete(reply);
      if (reply.lost) reply.response.destroy();
      else reply.send();
    }
  }

  #schedule(response: Response, delayMs: number, lost: boolean, statusCode: number, body: unknown): void {
    if (this.#closing) {
      if (lost) response.destroy();
      else this.#send(response, statusCode, body);
      return;
    }
    if (delayMs === 0 && !lost) {
      this.#send(response, statusCode, body);
      return;
    }
    const reply: PendingReply = {
      timer: setTimeout(() => {
        this.#pending.delete(reply);
        this.#send(response, statusCode, body);
      }, delayMs),
      send: () => this.#send(response, statusCode, body),
      lost,
      response,
    };
    this.#pending.add(reply);
    // A client that gave up (the usual fate of a held-back reply) frees its timer at once.
    response.once('close', () => {
      if (!this.#pending.delete(reply)) return;
      clearTimeout(reply.timer);
    });
  }

  #send(response: Response, statusCode: number, body: unknown): void {
    if (response.headersSent || response.destroyed) return;
    // While closing, each answer ends its keep-alive connection so the server can finish closing.
    if (this.#closing) response.setHeader('connection', 'close');
    if (body instanceof RawText) response.status(statusCode).type(body.contentType).send(body.text);
    else response.status(statusCode).json(body);
  }
}

/** A reply body sent exactly as written. */
class RawText {
  constructor(
    readonly contentType: string,
    readonly text: string,
  ) {}
}
