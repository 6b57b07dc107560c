# svc-node in a container: a build stage with the whole toolchain, and a slim runtime stage with only what runs.
# The commands are the README's "Build and run it without Docker" commands (test/docker/container.test.ts checks it).
#
#   docker build -t svc-node .
#   docker run -p 8546:8546 -v svc-data:/data svc-node                       # dev chain
#   docker run -p 8546:8546 -p 9076:9076 -v mordor:/data svc-node --network mordor

# ---- build: install every dependency (native modules compile here if no prebuilt binary fits), type-check and
# compile src/ into dist/, bundle it (dist/bundle/, a faster start), then drop the development dependencies.
FROM node:20-bookworm AS build
WORKDIR /app
COPY . .
RUN npm ci
RUN npm run build
RUN node bin/bundle.js --force
RUN npm prune --omit=dev

# ---- runtime: Node.js, the production dependencies, the compiled node and the docs portal it serves at /docs.
FROM node:20-bookworm-slim
ENV NODE_ENV=production
WORKDIR /app
COPY --from=build /app/package.json ./
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY --from=build /app/docs ./docs
# The data directory (chain database, keystore, node key, Ethash caches) is a volume owned by the unprivileged
# `node` user of the base image, which runs the node.
RUN mkdir -p /data && chown node:node /data
VOLUME /data
USER node
# JSON-RPC over HTTP and WebSocket (/ws), metrics (/metrics on dev; --metrics elsewhere); devp2p.
EXPOSE 8546 9076
# Liveness on the container's own port (8546: publish other host ports with -p <host>:8546 rather than --http.port).
HEALTHCHECK --interval=15s --timeout=5s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:8546/health').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# Inside the container only, the RPC server listens on every interface: the container's network is the boundary,
# and `-p` decides what the host exposes. Arguments given to `docker run` are appended (e.g. --network mordor).
ENTRYPOINT ["node", "dist/bundle/main.js", "--http.addr", "0.0.0.0", "--datadir", "/data"]
