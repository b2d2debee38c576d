# One image for the worker (default command) and the HTTP API (`node src/cli.ts serve`).
# Node 24 runs the TypeScript sources directly (type stripping), so there is no build step and the
# `node` devDependency (Node 24 for machines that ship an older Node) is not needed here.
FROM node:24.19.0-bookworm-slim

ENV NODE_ENV=production
WORKDIR /app

# Production dependencies only, from the lockfile. `npm ci` is not used: the lockfile lists only
# the linux platform packages of @swc/core, which `npm ci` rejects and `npm install` accepts.
# No install script is needed: @swc/core and the Temporal core bridge ship prebuilt glibc
# binaries. The core bridge's macOS and Windows binaries are dropped to slim the image.
COPY package.json package-lock.json .npmrc ./
RUN npm install --omit=dev --ignore-scripts --no-audit --no-fund \
  && rm -rf node_modules/@temporalio/core-bridge/releases/*-apple-darwin \
    node_modules/@temporalio/core-bridge/releases/*-windows-msvc \
  && npm cache clean --force

COPY bin ./bin
COPY src ./src
COPY workflows ./workflows
COPY activities ./activities
COPY agents ./agents

# The sources stay root-owned and read-only for the process; nothing writes under /app at run
# time (the workflow bundle is built in memory when the worker starts).
USER node

# Graceful stop: SIGTERM lets running activities finish (10 s) before the worker exits.
STOPSIGNAL SIGTERM
CMD ["node", "src/cli.ts", "worker"]
