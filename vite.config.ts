import react from "@vitejs/plugin-react";
import { defineConfig } from "vite";

/** The API server the dev server forwards to (`npm run dev` listens here). */
const API_ORIGIN = "http://127.0.0.1:3000";

/**
 * Vite builds the SPA from `web/` into `dist/web/`, which the API server serves.
 * Everything is bundled: no CDN, no external fonts.
 */
export default defineConfig({
  root: "web",
  plugins: [react()],
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
