import fs from "node:fs";
import path from "node:path";
import react from "@vitejs/plugin-react";
import { defineConfig, type Plugin } from "vite";

/** The API server the dev server forwards to (`npm run dev` listens here). */
const API_ORIGIN = "http://127.0.0.1:3000";

/**
 * Voice activity detection runs the Silero VAD model with onnxruntime-web in the
 * browser. Its model, audio worklet and WebAssembly files come from the npm packages and are
 * served by us under /vad/ (copied into the build, served as they are in development): nothing
 * is fetched from a CDN.
 */
const VAD_ASSETS = [
  "node_modules/@ricky0123/vad-web/dist/silero_vad_legacy.onnx",
  "node_modules/@ricky0123/vad-web/dist/vad.worklet.bundle.min.js",
  "node_modules/onnxruntime-web/dist/ort-wasm-simd-threaded.wasm",
  "node_modules/onnxruntime-web/dist/ort-wasm-simd-threaded.mjs",
];

function vadAssets(): Plugin {
  const byName = new Map(
    VAD_ASSETS.map((file) => [path.basename(file), path.resolve(import.meta.dirname, file)]),
  );
  return {
    name: "vad-assets",
    configureServer(server) {
      server.middlewares.use("/vad", (request, response, next) => {
        const file = byName.get((request.url ?? "").replace(/^\//, "").split("?")[0] ?? "");
        if (!file) return next();
        const type = file.endsWith(".wasm")
          ? "application/wasm"
          : file.endsWith("js")
            ? "text/javascript"
            : "application/octet-stream";
        response.setHeader("content-type", type);
        fs.createReadStream(file).pipe(response);
      });
    },
    generateBundle() {
      for (const [name, file] of byName) {
        this.emitFile({ type: "asset", fileName: `vad/${name}`, source: fs.readFileSync(file) });
      }
    },
  };
}

/** The packages of the Markdown stack (`npm ls` under react-markdown, remark-gfm and remark-breaks that reach the browser). */
const MARKDOWN_STACK = new RegExp(
  `node_modules[\\\\/](${[
    "react-markdown",
    "remark-[\\w-]+",
    "micromark[\\w-]*",
    "mdast-[\\w-]+",
    "hast-[\\w-]+",
    "unist-[\\w-]+",
    "unified",
    "vfile[\\w-]*",
    "property-information",
    "character-[\\w-]+",
    "decode-named-character-reference",
    "parse-entities",
    "stringify-entities",
    "is-(?:alphabetical|alphanumerical|decimal|hexadecimal|plain-obj)",
    "(?:space|comma)-separated-tokens",
    "html-url-attributes",
    "style-to-object",
    "inline-style-parser",
    "estree-util-is-identifier-name",
    "trim-lines",
    "markdown-table",
    "longest-streak",
    "ccount",
    "zwitch",
    "bail",
    "trough",
    "devlop",
    "extend",
    "dequal",
    "escape-string-regexp",
    "@ungap[\\\\/]structured-clone",
  ].join("|")})[\\\\/]`,
);

/** Whether `fileName` is the chat screen's chunk (its modules are preloaded by the SPA, see below). */
const isChatPageChunk = (fileName: string) => /(^|\/)ChatPage-[\w-]+\.js$/.test(fileName);

/**
 * The entry loads the app in steps (web/main.tsx: texts, React DOM, the app), each a dynamic
 * import so that each is evaluated in a task of its own. This adds `modulepreload` links for the
 * steps' chunks (and what they import) to index.html, so all are fetched and compiled at once,
 * with the entry, instead of one after the other.
 *
 * It also lists the chat screen's chunks that index.html does not preload, in a `chat-modules`
 * meta element: the SPA preloads them a few links a task (web/pageChunks.ts) instead of Vite's
 * helper appending them all in one task when the chat's chunk is imported (about 14 links, one
 * task of 50-130 ms at a phone's speed, docs/benchmarks.md); that helper's list for the chat is
 * cut to its style sheets (`chatModulesPreloadedBySpa`).
 */
function preloadStartupSteps(): Plugin {
  return {
    name: "preload-startup-steps",
    apply: "build",
    transformIndexHtml: {
      order: "post",
      handler(_html, { bundle, chunk }) {
        if (bundle === undefined || chunk === undefined) return [];
        const closure = (starts: Iterable<string>, skip: ReadonlySet<string> = new Set()) => {
          const files = new Set<string>();
          const visit = (file: string) => {
            const next = bundle[file];
            if (files.has(file) || skip.has(file) || next?.type !== "chunk") return;
            files.add(file);
            for (const imported of next.imports) visit(imported);
          };
          for (const start of starts) visit(start);
          return files;
        };
        const startup = closure(chunk.dynamicImports);
        for (const file of [chunk.fileName, ...chunk.imports]) startup.delete(file);
        const inPage = new Set([chunk.fileName, ...chunk.imports, ...startup]);
        const chat = Object.values(bundle).find(
          (output) => output.type === "chunk" && isChatPageChunk(output.fileName),
        );
        const chatFiles = chat === undefined ? [] : [...closure([chat.fileName], inPage)];
        return [
          ...[...startup].map((file) => ({
            tag: "link",
            attrs: { rel: "modulepreload", crossorigin: true, href: `/${file}` },
            injectTo: "head" as const,
          })),
          {
            tag: "meta",
            attrs: { name: "chat-modules", content: chatFiles.map((file) => `/${file}`).join(" ") },
            injectTo: "head" as const,
          },
        ];
      },
    },
  };
}

/**
 * Vite's preload list for a dynamic import (`build.modulePreload.resolveDependencies`): the chat
 * screen's chunk keeps only its style sheets, since the SPA preloads its modules itself from the
 * `chat-modules` list (see `preloadStartupSteps`).
 */
function chatModulesPreloadedBySpa(filename: string, deps: string[]): string[] {
  return isChatPageChunk(filename) ? deps.filter((dep) => dep.endsWith(".css")) : deps;
}

/**
 * Vite builds the SPA from `web/` into `dist/web/`, which the API server serves.
 * Everything is bundled: no CDN, no external fonts.
 */
export default defineConfig({
  root: "web",
  plugins: [react(), vadAssets(), preloadStartupSteps()],
  build: {
    outDir: "../dist/web",
    emptyOutDir: true,
    // .vite/manifest.json: bench/bundle-size.ts sums the JS each route loads from it.
    manifest: true,
    // Every browser the app supports preloads modules natively (modulepreload: Chrome 66,
    // Firefox 115, Safari 17); one that does not just fetches them as they are imported.
    modulePreload: { polyfill: false, resolveDependencies: chatModulesPreloadedBySpa },
    rolldownOptions: {
      output: {
        codeSplitting: {
          groups: [
            // React, React DOM and the scheduler: one chunk, evaluated in the startup's React DOM
            // step (web/main.tsx); split in four, they cost about 1 kB more on every page.
            { name: "react", test: /node_modules[\\/](react|react-dom|scheduler)[\\/]/ },
            { name: "app", test: /node_modules[\\/](react-router|@tanstack)[\\/]/ },
            // The Markdown stack of the chat's bubbles (react-markdown, remark-gfm, remark-breaks and
            // their dependencies): evaluated in a step of its own before the chat screen's chunk
            // (web/pageChunks.ts, evaluateMarkdownStack).
            { name: "markdown", test: MARKDOWN_STACK },
          ],
        },
      },
    },
  },
  server: {
    proxy: {
      "/api": API_ORIGIN,
      "/content": API_ORIGIN,
      "/meta.json": API_ORIGIN,
    },
  },
});
