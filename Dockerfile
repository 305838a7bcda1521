# The operator image: bin/realmforge.js runs the bundle dist/operator/realmforge.mjs, which holds every dependency it
# loads (scripts/operator-bundle.ts), so the image has no node_modules; non-root.
FROM node:24-slim AS build
WORKDIR /app
COPY package.json package-lock.json .npmrc ./
RUN npm ci
COPY . .
RUN npm run build

FROM node:24-slim
WORKDIR /app
ENV NODE_ENV=production
COPY --from=build /app/package.json ./
COPY --from=build /app/dist/operator ./dist/operator
COPY --from=build /app/bin ./bin
COPY --from=build /app/schemas ./schemas
USER 65532:65532
EXPOSE 8081
ENTRYPOINT ["node", "bin/realmforge.js"]
CMD ["run"]
