/*
 * The helpers other console modules import by this name (statement-break-routes.tsx lists its breaks with
 * them, bulk-upload-routes.tsx refuses an unknown MID with them). Each lives where its concept does: the
 * list pages' in pages/lists/list-page.tsx, the search box's in pages/search.tsx, and the subject-or-404
 * checks in console-guards.tsx.
 */
export { renderListPage, signedIn, wholeNumber } from './pages/lists/list-page.js';
export { searchKeys } from './pages/search.js';
export { merchantNotFound, merchantOr404, notFound } from './console-guards.js';
