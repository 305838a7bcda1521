# The operator image: the package built to JavaScript (bin/realmforge.js runs the bundle dist/operator/realmforge.mjs), production dependencies only, non-root.
FROM node:24-slim AS build
WORKDIR /app
COPY package.json package-lock.json .npmrc ./
RUN npm ci
COPY . .
RUN npm run build && npm prune --omit=dev

FROM node:24-slim
WORKDIR /app
ENV NODE_ENV=production
COPY --from=build /app/package.json ./
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY --from=build /app/bin ./bin
COPY --from=build /app/schemas ./schemas
USER 65532:65532
EXPOSE 8081
ENTRYPOINT ["node", "bin/realmforge.js"]
CMD ["run"]
