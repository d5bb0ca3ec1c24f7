FROM node:20-bookworm-slim
RUN apt-get update && apt-get install -y --no-install-recommends git ca-certificates && rm -rf /var/lib/apt/lists/*
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --no-audit --no-fund
COPY . .
ENV NODE_ENV=production
# Inside a container the published port is the boundary; Medic itself defaults to loopback.
ENV HOST=0.0.0.0
RUN mkdir -p /app/.medic && chown -R node /app/.medic
USER node
EXPOSE 3000
CMD ["npm", "start"]
