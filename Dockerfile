# One image for every app of the gateway; docker-compose.yml picks the app with `command`.
# Node.js pinned to the exact release CI tests on (`node --version` on the CI machine), in both stages, so
# the image runs what was tested; deploy/build-image.sh records the pushed image's digest for the release.
# Node.js 20 is past its end of life (2026-04-30): docs/operations.md, "The image's Node.js", says what
# moving to 22 takes.
ARG NODE_IMAGE=node:20.20.2-bookworm-slim
FROM ${NODE_IMAGE} AS build
WORKDIR /app
RUN npm install --global --no-audit --no-fund pnpm@10.34.8
COPY pnpm-lock.yaml pnpm-workspace.yaml package.json ./
COPY apps/api/package.json apps/api/
COPY apps/worker/package.json apps/worker/
COPY apps/rail-sim/package.json apps/rail-sim/
COPY packages/cli/package.json packages/cli/
COPY packages/config/package.json packages/config/
COPY packages/db/package.json packages/db/
COPY packages/domain/package.json packages/domain/
COPY packages/queue/package.json packages/queue/
COPY packages/use-cases/package.json packages/use-cases/
COPY packages/rails/package.json packages/rails/
COPY packages/recon/package.json packages/recon/
COPY packages/telemetry/package.json packages/telemetry/
COPY packages/client/package.json packages/client/
COPY examples/merchant-integration/package.json examples/merchant-integration/
RUN pnpm install --frozen-lockfile
COPY . .
RUN pnpm build && pnpm prune --prod --ignore-scripts

FROM ${NODE_IMAGE}
ENV NODE_ENV=production
# The memory budget of every process (see docs/performance.md): without a cap V8 grows the old space under
# load to ~350 MB resident rather than collect; capped at 128 MB the API peaks near 210 MB for a few per cent
# more CPU. (A smaller young generation would get under 200 MB, but costs about a quarter of the throughput.)
ENV NODE_OPTIONS="--max-old-space-size=128"
WORKDIR /app
COPY --from=build /app /app
# The operator's CLI, compiled, under a short name on PATH: runbooks run `deploy/ops.sh reconcile`, which
# runs `payout-cli reconcile` in a pod of its own (docs/operations.md, "Commands run in a pod"); the image
# has neither pnpm nor tsx.
RUN chmod 0755 /app/packages/cli/bin/payout-cli.js \
 && ln -s /app/packages/cli/bin/payout-cli.js /usr/local/bin/payout-cli
USER node
# Overridden per service: node apps/<app>/dist/main.js, or node packages/db/dist/migrate/main.js.
CMD ["node", "apps/api/dist/main.js"]
