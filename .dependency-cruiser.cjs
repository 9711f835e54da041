/**
 * Dependency rules for the whole tree, run by `npm run deps`:
 *   npx depcruise server web common --config .dependency-cruiser.cjs
 *
 * What the rules say (house style "areas meet through seams, not through each other"):
 * - server module folders (`server/modules/<area>/`) form no cycle, type-only imports included;
 * - a module folder reaches another only through the seams `conversation`, `prompt`, `quota`, `safety`,
 *   `plans` and `auth`, and never through another module's `*.routes.ts`;
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
