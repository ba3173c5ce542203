# One image for every role of docs/deploy.md, chosen by the command: the web server (the default)
# and the worker (`docker run … entre-docentes node src/lib/server/worker.server.ts`, what
# `npm run worker` runs). Debian, because ffmpeg, poppler-utils and sharp's prebuilt libvips are
# at home there.
#
# The base image only brings a Node to run npm with: `npm ci` installs the Node 24 the project pins
# (the `node` package, into node_modules/.bin/node), and every command below runs that one, as the
# systemd units do.

FROM node:24-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci
COPY . .
RUN npm run build && npm prune --omit=dev

FROM node:24-bookworm-slim
# ffmpeg: transcodes and posters (worker); poppler-utils: PDF thumbnails; tini: PID 1 that passes
# SIGTERM on and reaps what a killed ffmpeg leaves; setpriv (util-linux) is already in the base.
RUN apt-get update \
  && apt-get install -y --no-install-recommends ffmpeg poppler-utils tini ca-certificates \
  && rm -rf /var/lib/apt/lists/*
WORKDIR /app
# Owned by root and read-only to the server: it writes only to DATA_DIR.
COPY --from=build /app /app
RUN mkdir -p /data && chown node:node /data
# MALLOC_*: src/lib/server/entorno-proceso.server.ts (decision 0085).
ENV PATH=/app/node_modules/.bin:$PATH \
  MALLOC_ARENA_MAX=2 \
  MALLOC_MMAP_THRESHOLD_=4194304 \
  MALLOC_TRIM_THRESHOLD_=4194304 \
  HOST=0.0.0.0 \
  PORT=4321 \
  DATA_DIR=/data
# The unprivileged user of the official Node images (uid 1000).
USER node
EXPOSE 4321
ENTRYPOINT ["/usr/bin/tini", "--"]
CMD ["node", "src/lib/server/main.server.ts"]
