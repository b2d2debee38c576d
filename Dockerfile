# One image for the worker (default command) and the HTTP API with the web console
# (`node src/cli.ts serve`). Node 24 runs the TypeScript sources directly (type stripping), so the
# server has no build step; the web console (React, Vite) is built in a stage of its own, with
# the dev dependencies, and only its output is copied into the image.

FROM node:24.19.0-bookworm-slim AS console
WORKDIR /build
COPY package.json package-lock.json .npmrc ./
# Exactly the lockfile, dev dependencies included (Vite, React). No install scripts: the `node`
# package's Node 24 is not needed (the image has it), and the prepare script needs the sources.
RUN npm ci --ignore-scripts --no-audit --no-fund
COPY src/web ./src/web
RUN npm run build:console

FROM node:24.19.0-bookworm-slim

ENV NODE_ENV=production
WORKDIR /app

# Production dependencies only, exactly the lockfile. No install script is needed: @swc/core and
# the Temporal core bridge ship prebuilt glibc binaries (and the prepare script's console build
# happens in the stage above). The core bridge's macOS and Windows binaries are dropped to slim
# the image.
COPY package.json package-lock.json .npmrc ./
RUN npm ci --omit=dev --ignore-scripts --no-audit --no-fund \
  && rm -rf node_modules/@temporalio/core-bridge/releases/*-apple-darwin \
    node_modules/@temporalio/core-bridge/releases/*-windows-msvc \
  && npm cache clean --force

COPY bin ./bin
COPY src ./src
COPY workflows ./workflows
COPY activities ./activities
COPY agents ./agents
# The API serves it at / (src/server/console-static.ts reads dist/web).
COPY --from=console /build/dist/web ./dist/web

# The sources stay root-owned and read-only for the process; nothing writes under /app at run
# time (the workflow bundle is built in memory when the worker starts).
USER node

# Graceful stop: SIGTERM lets running activities finish (10 s) before the worker exits.
STOPSIGNAL SIGTERM
CMD ["node", "src/cli.ts", "worker"]
