# Production image: multi-stage build, non-root runtime, no emulators, no embedded database.
# Needs DATABASE_URL, SUPABASE_URL, SUPABASE_ANON_KEY, STRIPE_* and the secrets (see .env.example).
FROM node:26.10-bookworm-slim AS deps
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund

FROM deps AS build
COPY . .
RUN npx react-router build && npm prune --omit=dev

FROM node:26.10-bookworm-slim AS runtime
ENV NODE_ENV=production PORT=3000 DATA_DIR=/app/.data SKIP_BUILD=true
WORKDIR /app
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/build ./build
COPY --from=build /app/package.json /app/server.ts ./
COPY --from=build /app/db ./db
COPY --from=build /app/migrations ./migrations
COPY --from=build /app/emulators ./emulators
COPY --from=build /app/app/lib ./app/lib
COPY --from=build /app/app/server ./app/server
RUN mkdir -p /app/.data && chown -R node:node /app/.data
USER node
EXPOSE 3000
HEALTHCHECK --interval=30s --timeout=5s CMD node -e "fetch('http://127.0.0.1:3000/healthz').then(r=>process.exit(r.ok?0:1)).catch(()=>process.exit(1))"
CMD ["npm", "start"]
