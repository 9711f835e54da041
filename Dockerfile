# Production image. Build stage: install with dev dependencies, build the SPA and
# compile the server (npm ci runs `prepare` = `npm run build`), then drop dev dependencies.
# Runtime stage: the built app and production dependencies only, as the unprivileged `node` user;
# `node dist/server/main.js` starts it (no TypeScript loader, no build at start).
# Node 24 (the project supports 22 and 24), pinned to 24.18.1: from 24.19.0 Node's ObjectWrap header
# registers cleanup hooks that abort the process when better-sqlite3 12 (not Node-API) finalizes a
# statement outside a context ("Assertion failed: (env) != nullptr"). Same pin as .ci/run.
FROM node:24.18.1-bookworm-slim AS build
WORKDIR /app
# Native modules (better-sqlite3, argon2, sharp, node-llama-cpp) build or fetch their binaries here.
RUN apt-get update \
  && apt-get install -y --no-install-recommends python3 make g++ ca-certificates \
  && rm -rf /var/lib/apt/lists/*
COPY . .
RUN npm ci --no-audit --no-fund \
  && npm prune --omit=dev --no-audit --no-fund

FROM node:24.18.1-bookworm-slim
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=3000 \
    DATA_DIR=/data
WORKDIR /app
COPY --from=build --chown=node:node /app/package.json /app/package-lock.json ./
COPY --from=build --chown=node:node /app/node_modules ./node_modules
COPY --from=build --chown=node:node /app/dist ./dist
RUN mkdir -p /data && chown node:node /data
USER node
VOLUME ["/data"]
EXPOSE 3000
# Healthy = ready for traffic (GET /api/ready: database, storage, Redis and model answer; 503 while
# shutting down), not merely alive (/api/health). No curl in the slim image: node's fetch.
HEALTHCHECK --interval=15s --timeout=3s --start-period=30s \
  CMD node -e "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/api/ready').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
# SIGTERM drains running replies for SHUTDOWN_GRACE_MS before exiting.
STOPSIGNAL SIGTERM
CMD ["node", "--enable-source-maps", "dist/server/main.js"]
