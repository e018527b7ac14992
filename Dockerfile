# syntax=docker/dockerfile:1
# Larder's production image (docs/operations.md "Deployment"). Three stages on one Node 20 base:
# `build` installs every dependency and builds the console with Vite, `prod-deps` installs the
# production dependencies only, and `runtime` takes the server's sources, those dependencies and
# the built console, and runs as the unprivileged `node` user.
#
# The server runs its TypeScript through tsx, a production dependency (as `npm start` and
# bin/larder.mjs do); Vite and every other devDependency are needed only to build the console,
# so they stay in the build stage. Install scripts are skipped: no production dependency needs one
# (esbuild finds its platform package without its postinstall; sharp and argon2 ship prebuilt
# packages).

ARG NODE_IMAGE=node:20-bookworm-slim

FROM ${NODE_IMAGE} AS base
WORKDIR /app

FROM base AS build
COPY package.json package-lock.json ./
RUN npm ci --ignore-scripts --no-audit --no-fund
COPY . .
RUN npm run build

FROM base AS prod-deps
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --ignore-scripts --no-audit --no-fund && npm cache clean --force

FROM base AS runtime
ENV NODE_ENV=production \
    DATA_DIR=/data \
    PORT=8080
COPY --from=prod-deps /app/node_modules ./node_modules
COPY package.json package-lock.json tsconfig.json ./
COPY bin ./bin
COPY drizzle ./drizzle
COPY definitions ./definitions
COPY server ./server
COPY --from=build /app/dist/console ./dist/console
# `npm start` rebuilds the console when a source is newer than dist/console/index.html, and Vite
# is not in this image: mark the build as the newest file and check here, at build time, that the
# server will not want to rebuild it at start.
RUN touch dist/console/index.html \
 && node --import tsx --input-type=module -e "const { consoleIsStale } = await import('./server/build-console.ts'); if (consoleIsStale()) { console.error('dist/console is older than its sources'); process.exit(1); }" \
 && rm -rf /tmp/tsx-* \
 && ln -s /app/bin/larder.mjs /usr/local/bin/larder \
 && mkdir -p /data /backups \
 && chown node:node /data /backups
USER node
VOLUME /data
EXPOSE 8080
HEALTHCHECK --interval=15s --timeout=5s --start-period=60s --retries=3 \
  CMD node -e "fetch('http://127.0.0.1:' + (process.env.PORT || 8080) + '/api/health').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"
# Node itself is the container's main process (no npm in between), so SIGTERM reaches server/start.ts,
# which closes cleanly; compose.yaml adds an init process that reaps the webhook sender's child.
CMD ["node", "--import", "tsx", "server/start.ts"]
