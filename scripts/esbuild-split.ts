// The esbuild options of the code-split ES module bundle of the operator (dist/operator, the image runs it):
// one entry file and chunks that load only when their command runs, for the Node versions we support.
import type { BuildOptions } from 'esbuild';

export const splitNodeBundle = {
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node22',
  outExtension: { '.js': '.mjs' },
  chunkNames: 'chunks/[name]-[hash]',
  minifySyntax: true,
  legalComments: 'linked',
  // Some bundled dependencies are CommonJS and call require() for Node's built-in modules.
  banner: {
    js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);",
  },
  logLevel: 'warning',
} satisfies BuildOptions;
