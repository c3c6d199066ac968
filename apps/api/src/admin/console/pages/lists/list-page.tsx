import type { Response } from 'express';
import { viewerOf, type Viewer } from '../../console-session.js';
import { renderPage } from '../../render.js';
import { ListPage, type ListPageProps } from '../../views/layout.js';

/** The most rows a list shows: a list is where support starts, not an export (the CSV statement is). */
export const LIST_LIMIT = 200;

/** Sends a list page to the signed-in viewer. */
export function renderListPage<Row>(res: Response, list: Omit<ListPageProps<Row>, 'viewer'>): void {
  renderPage(res, 200, <ListPage viewer={signedIn(res)} {...list} />);
}

/** The viewer of a page behind the sign-in guard (console-routes.tsx puts every page behind it). */
export function signedIn(res: Response): Viewer {
  const viewer = viewerOf(res);
  if (!viewer) throw new Error('console page reached without a signed-in viewer');
  return viewer;
}

/** A query's whole number (up to six digits), or the fallback for anything else. */
export function wholeNumber(value: unknown, fallback: number): number {
  return typeof value === 'string' && /^[0-9]{1,6}$/.test(value) ? Number(value) : fallback;
}
