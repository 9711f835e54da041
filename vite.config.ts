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
 * Vite builds the SPA from `web/` into `dist/web/`, which the API server serves.
 * Everything is bundled: no CDN, no external fonts.
 */
export default defineConfig({
  root: "web",
  plugins: [react(), vadAssets()],
  build: {
    outDir: "../dist/web",
    emptyOutDir: true,
    // .vite/manifest.json: bench/bundle-size.ts sums the JS each route loads from it.
    manifest: true,
  },
  server: {
    proxy: {
      "/api": API_ORIGIN,
      "/content": API_ORIGIN,
      "/meta.json": API_ORIGIN,
    },
  },
});
