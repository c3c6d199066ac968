import type { Response } from 'express';
import type { VNode } from 'preact';
import { renderToString } from 'preact-render-to-string';

/**
 * Sends a console page: rendered on the server (preact-render-to-string escapes every value), never
 * cached, since each shows one person's view of live money.
 */
export function renderPage(res: Response, status: number, page: VNode): void {
  res
    .status(status)
    .type('html')
    .setHeader('Cache-Control', 'no-store')
    .send(`<!doctype html>${renderToString(page)}`);
}
