# tollgate serve in a container. Build from a checkout: docker build -t tollgate .
# Run with the Tomcat base mounted read-only and the ports published:
#   docker run -p 8080:8080 -p 9090:9090 -v /srv/tomcat:/srv/tomcat:ro tollgate
# (test/server/dockerfile.test.ts lints this file; no image is built there: docs/deployment.md says why.)

FROM node:20-bookworm-slim AS build
WORKDIR /build
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY . .
# The bundle, then only what runs: the dependencies without the dev ones, plus the Redis client (--store redis).
RUN npm run build \
    && npm prune --omit=dev --no-audit --no-fund \
    && npm install --omit=dev --no-save --no-audit --no-fund @redis/client@^6.3.1

FROM node:20-bookworm-slim
ENV NODE_ENV=production \
    TOLLGATE_COMPILE_CACHE=/tmp/tollgate-cache
WORKDIR /opt/tollgate
COPY --from=build /build/package.json ./
COPY --from=build /build/node_modules ./node_modules
COPY --from=build /build/bin ./bin
COPY --from=build /build/dist ./dist
COPY --from=build /build/schemas ./schemas
# The node image's unprivileged user: serve needs no root (publish port 80 with -p 80:8080).
USER node
EXPOSE 8080 9090
# The operations listener's liveness answer (/live), asked with node itself (the slim image has no curl).
HEALTHCHECK --interval=15s --timeout=5s --start-period=30s --retries=3 \
    CMD ["node", "-e", "fetch('http://127.0.0.1:9090/live').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# SIGTERM reaches node itself (no npm, no shell), which drains within --drain-timeout (docker stop waits 10 s by default: use -t 40).
STOPSIGNAL SIGTERM
ENTRYPOINT ["node", "/opt/tollgate/bin/tollgate.js"]
CMD ["serve", "--base", "/srv/tomcat", "--address", "0.0.0.0", "--port", "8080", "--ops-port", "9090", "--ops-address", "0.0.0.0"]
