# Build stage: `npm ci` runs the `prepare` script, which bundles src/ into dist/ with esbuild.
FROM node:20-bookworm-slim AS build
WORKDIR /app
COPY . .
RUN npm ci --no-audit --no-fund

FROM node:20-bookworm-slim
RUN apt-get update && apt-get install -y --no-install-recommends git ca-certificates && rm -rf /var/lib/apt/lists/*
WORKDIR /app
COPY package.json package-lock.json ./
# The build already ran above; production dependencies only, and no install scripts to rebuild it.
RUN npm ci --omit=dev --no-audit --no-fund --ignore-scripts
COPY . .
COPY --from=build /app/dist ./dist
ENV NODE_ENV=production
# Inside a container the published port is the boundary; Medic itself defaults to loopback.
ENV HOST=0.0.0.0
RUN mkdir -p /app/.medic && chown -R node /app/.medic
USER node
EXPOSE 3000
# node itself, not npm: the process the container's signals reach is Medic's own.
CMD ["node", "dist/main.js"]
