/**
 * Dependency rules for the whole tree, run by `npm run deps`:
 *   npx depcruise server web common --config .dependency-cruiser.cjs
 *
 * What the rules say (house style "areas meet through seams, not through each other"):
 * - server module folders (`server/modules/<area>/`) form no cycle, type-only imports included;
 * - a module folder reaches another only through the seams `conversation`, `prompt`, `quota`, `safety`,
 *   `plans` and `auth`, and never through another module's `*.routes.ts`;
 * - inside a module folder only the HTTP adapters import `server/http/`: route files (`*.routes.ts`),
 *   request schemas (`*.schemas.ts`), presenters (`*.presenter.ts`) and the few adapter files named
 *   in HTTP_ADAPTERS; services, repositories and workers never do;
 * - `web/hooks` and `web/lib` (shared by several areas) never import `web/pages`, and
 *   `web/lib` never imports `web/api`;
 * - `server/` and `web/` never import each other (both may import `common/`);
 * - no file-level import cycle anywhere.
 *
 * Test files (`*.test.ts(x)`) are not cruised: a unit test wires the real services it tests
 * (the way the composition root does), so it may import any module; nothing imports a test,
 * so no cycle can pass through one. The test helpers in `server/testing/` are cruised.
 */

/** Module folders another module folder may import from. */
const SEAMS = ["conversation", "prompt", "quota", "safety", "plans", "auth"];

/**
 * Module files besides routes, schemas and presenters that are HTTP adapters, so may import
 * `server/http/`: route options with rate limits, the reply's event stream, the picture cookie guard.
 */
const HTTP_ADAPTERS = ["auth/credential-limits.ts", "chat/reply-stream.ts", "content/content-access.ts"];

/** A file path as a literal in a regular expression. */
const escapeRe = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: "no-module-folder-cycle",
      severity: "error",
      comment:
        "Server module folders form no cycle, type-only imports included: where module A needs B's " +
        "behaviour, A declares a port and server/container.ts passes B's service.",
      scope: "folder",
      from: { path: "^server/modules/[^/]+" },
      to: { path: "^server/modules/[^/]+", circular: true },
    },
    {
      name: "module-through-seams-only",
      severity: "error",
      comment:
        `A module folder imports another module folder only through the seams (${SEAMS.join(", ")}); ` +
        "anything else goes through a port wired in server/container.ts.",
      from: { path: "^server/modules/([^/]+)/" },
      to: {
        path: "^server/modules/([^/]+)/",
        pathNot: [`^server/modules/$1/`, `^server/modules/(${SEAMS.join("|")})/`],
      },
    },
    {
      name: "no-other-module-routes",
      severity: "error",
      comment: "Routes are HTTP adapters: no module imports another module's *.routes.ts.",
      from: { path: "^server/modules/([^/]+)/" },
      to: { path: "^server/modules/[^/]+/.+\\.routes\\.ts$", pathNot: "^server/modules/$1/" },
    },
    {
      name: "http-only-from-adapters",
      severity: "error",
      comment:
        "Inside a module folder only the HTTP adapters (routes, schemas, presenters, HTTP_ADAPTERS) import " +
        "server/http/: a service, repository or worker takes what it needs from outside http/ " +
        "(server/observability/metrics.ts, server/security/secret-hash.ts) or gets it passed.",
      from: {
        path: "^server/modules/",
        pathNot: [
          "\\.(routes|schemas|presenter)\\.ts$",
          `^server/modules/(${HTTP_ADAPTERS.map(escapeRe).join("|")})$`,
        ],
      },
      to: { path: "^server/http/" },
    },
    {
      name: "shared-web-not-to-pages",
      severity: "error",
      comment: "web/hooks and web/lib hold what two or more areas share: they never import web/pages.",
      from: { path: "^web/(hooks|lib)/" },
      to: { path: "^web/pages/" },
    },
    {
      name: "web-lib-not-to-api",
      severity: "error",
      comment: "web/lib is below web/api: the API client may use lib, never the other way round.",
      from: { path: "^web/lib/" },
      to: { path: "^web/api/" },
    },
    {
      name: "server-not-to-web",
      severity: "error",
      comment: "The server never imports the SPA; what both need lives in common/.",
      from: { path: "^server/" },
      to: { path: "^web/" },
    },
    {
      name: "web-not-to-server",
      severity: "error",
      comment: "The SPA never imports the server; what both need lives in common/.",
      from: { path: "^web/" },
      to: { path: "^server/" },
    },
    {
      name: "no-file-cycle",
      severity: "error",
      comment: "No file-level import cycle (type-only imports included).",
      from: { path: "^(server|web|common)/" },
      to: { circular: true },
    },
    {
      name: "no-unresolvable",
      severity: "error",
      comment: "Every relative import resolves to a file (a moved file left a stale import).",
      from: {},
      to: { couldNotResolve: true },
    },
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    exclude: { path: "\\.test\\.tsx?$" },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
    enhancedResolveOptions: {
      extensions: [".ts", ".tsx", ".js", ".mjs", ".cjs", ".json"],
    },
    reporterOptions: { text: { highlightFocused: true } },
  },
};
