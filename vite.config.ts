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

/**
 * The entry loads the app in steps (web/main.tsx: texts, React DOM, the app), each a dynamic
 * import so that each is evaluated in a task of its own. This adds `modulepreload` links for the
 * steps' chunks (and what they import) to index.html, so all are fetched and compiled at once,
 * with the entry, instead of one after the other.
 */
function preloadStartupSteps(): Plugin {
  return {
    name: "preload-startup-steps",
    apply: "build",
    transformIndexHtml: {
      order: "post",
      handler(_html, { bundle, chunk }) {
        if (bundle === undefined || chunk === undefined) return [];
        const files = new Set<string>();
        const visit = (file: string) => {
          const next = bundle[file];
          if (files.has(file) || next?.type !== "chunk") return;
          files.add(file);
          for (const imported of next.imports) visit(imported);
        };
        for (const step of chunk.dynamicImports) visit(step);
        for (const file of [chunk.fileName, ...chunk.imports]) files.delete(file);
        return [...files].map((file) => ({
          tag: "link",
          attrs: { rel: "modulepreload", crossorigin: true, href: `/${file}` },
          injectTo: "head" as const,
        }));
      },
    },
  };
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
    modulePreload: { polyfill: false },
    rolldownOptions: {
      output: {
        codeSplitting: {
          groups: [
            // React, React DOM and the scheduler: one chunk, evaluated in the startup's React DOM
            // step (web/main.tsx); split in four, they cost about 1 kB more on every page.
            { name: "react", test: /node_modules[\\/](react|react-dom|scheduler)[\\/]/ },
            { name: "app", test: /node_modules[\\/](react-router|@tanstack)[\\/]/ },
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
