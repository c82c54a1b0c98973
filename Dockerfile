# syntax=docker/dockerfile:1
# burnrate: build once, run as an unprivileged user with the database on a volume.

FROM node:26-bookworm-slim AS build
WORKDIR /app
# No compiler needed: every native module (better-sqlite3, DuckDB, resvg, swc) ships a prebuilt binary.
COPY package.json package-lock.json ./
RUN npm ci
COPY tsconfig.json ./
COPY src ./src
COPY commands ./commands
COPY templates ./templates
COPY bench ./bench
COPY scripts ./scripts
RUN npm run build && npm prune --omit=dev

FROM node:26-bookworm-slim AS runtime
ENV NODE_ENV=production \
    BURNRATE_DB=/var/lib/burnrate/burnrate.db \
    HOST=0.0.0.0 \
    PORT=3000
WORKDIR /app
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY package.json manifest.yml burnrate.example.yml ./
COPY bin ./bin
RUN mkdir -p /var/lib/burnrate && chown node:node /var/lib/burnrate
USER node
VOLUME ["/var/lib/burnrate"]
EXPOSE 3000
HEALTHCHECK --interval=30s --timeout=5s --start-period=60s --retries=3 \
  CMD node -e "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/healthz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
ENTRYPOINT ["node", "bin/burnrate.js"]
CMD ["serve"]
