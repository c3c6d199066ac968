import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import { Router, type RequestHandler } from 'express';
import helmet from 'helmet';
import { methodNotAllowed } from '../http/error-handler.js';
import { buildOpenApiDocument } from './openapi-document.js';

// The API reference: GET /openapi.json (the document) and GET /docs (Swagger UI reading it), both without
// authentication. Swagger UI is served from the installed swagger-ui-dist: no CDN, the page works offline.

const SWAGGER_UI_DIR = dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
const SWAGGER_UI_FILES = ['swagger-ui.css', 'swagger-ui-bundle.js', 'favicon-32x32.png', 'favicon-16x16.png'];
const ASSETS = '/docs/assets';

/** The version of @payout/api (src/openapi and dist/openapi both sit two levels below its package.json). */
function packageVersion(): string {
  const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
  return pkg.version;
}

// Swagger UI is started by a script file rather than inline, so the page needs no 'unsafe-inline' script.
const INITIALIZER = `window.addEventListener('load', function () {
  window.ui = SwaggerUIBundle({
    url: '/openapi.json',
    dom_id: '#swagger-ui',
    deepLinking: true,
    docExpansion: 'list',
    defaultModelsExpandDepth: 0,
    validatorUrl: null,
    presets: [SwaggerUIBundle.presets.apis],
    layout: 'BaseLayout',
  });
});
`;

const PAGE = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8">
    <title>Payout gateway API reference</title>
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <link rel="stylesheet" href="${ASSETS}/swagger-ui.css">
    <link rel="icon" type="image/png" href="${ASSETS}/favicon-32x32.png" sizes="32x32">
    <link rel="icon" type="image/png" href="${ASSETS}/favicon-16x16.png" sizes="16x16">
  </head>
  <body>
    <div id="swagger-ui"></div>
    <script src="${ASSETS}/swagger-ui-bundle.js"></script>
    <script src="${ASSETS}/docs-initializer.js"></script>
  </body>
</html>
`;

// Only this page gets a policy other than helmet's app-wide default, and a stricter one: scripts and styles
// from this origin only (Swagger UI styles elements through the DOM, which needs no 'unsafe-inline'), data:
// images for its icons, requests to this origin only (/openapi.json, "Try it out"); nothing may frame the
// page, and no plugin or base URL is allowed. test/docs checks the page renders with no CSP violation.
const docsPagePolicy = helmet.contentSecurityPolicy({
  useDefaults: false,
  directives: {
    defaultSrc: ["'none'"],
    scriptSrc: ["'self'"],
    styleSrc: ["'self'"],
    imgSrc: ["'self'", 'data:'],
    connectSrc: ["'self'"],
    fontSrc: ["'self'", 'data:'],
    formAction: ["'self'"],
    baseUri: ["'none'"],
    frameAncestors: ["'none'"],
    objectSrc: ["'none'"],
  },
});

/** A Host header that is a plain host name or address with an optional port; anything else is not echoed. */
const PLAIN_HOST = /^(?:[A-Za-z0-9-]{1,63}(?:\.[A-Za-z0-9-]{1,63})*|\[[0-9A-Fa-f:.]{2,45}\])(?::\d{1,5})?$/;
const CACHED_ORIGINS = 8;

/**
 * GET /openapi.json and GET /docs with its assets. The document names the origin that served it as its
 * server, so a client generated from it talks to this API; its text is built once per origin (a few at most:
 * the names this API is reached by), and a malformed Host gets the relative "/" instead of an echo.
 */
export function apiDocsRoutes(): Router {
  const version = packageVersion();
  const documentTexts = new Map<string, string>();
  const documentFor = (origin: string): string => {
    let text = documentTexts.get(origin);
    if (text === undefined) {
      text = JSON.stringify(buildOpenApiDocument(version, origin));
      if (documentTexts.size < CACHED_ORIGINS) documentTexts.set(origin, text);
    }
    return text;
  };
  const router = Router();

  router
    .route('/openapi.json')
    .get((req, res) => {
      const host = req.get('host') ?? '';
      const origin = PLAIN_HOST.test(host) ? `${req.protocol}://${host}` : '/';
      res.status(200).type('application/json; charset=utf-8').send(documentFor(origin));
    })
    .all(methodNotAllowed);

  router
    .route('/docs')
    .get(docsPagePolicy, (_req, res) => {
      res.status(200).type('text/html; charset=utf-8').send(PAGE);
    })
    .all(methodNotAllowed);

  const asset =
    (file: string): RequestHandler =>
    (_req, res, next) => {
      res.sendFile(file, { root: SWAGGER_UI_DIR, maxAge: '1h' }, (error) => error && next(error));
    };
  for (const file of SWAGGER_UI_FILES) router.route(`${ASSETS}/${file}`).get(asset(file)).all(methodNotAllowed);
  router
    .route(`${ASSETS}/docs-initializer.js`)
    .get((_req, res) => {
      res.status(200).type('text/javascript; charset=utf-8').send(INITIALIZER);
    })
    .all(methodNotAllowed);

  return router;
}
