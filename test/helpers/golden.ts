import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import * as assert from 'uvu/assert';

/** Compares text with a golden file; UPDATE_GOLDEN=1 rewrites the file instead (review the diff, then commit). */
export function assertGolden(actual: string, goldenPath: string): void {
  if (process.env.UPDATE_GOLDEN === '1' || !existsSync(goldenPath)) {
    if (process.env.CI && !existsSync(goldenPath)) assert.unreachable(`golden file ${goldenPath} is missing`);
    mkdirSync(dirname(goldenPath), { recursive: true });
    writeFileSync(goldenPath, actual);
  }
  assert.fixture(actual, readFileSync(goldenPath, 'utf8'), `output differs from ${goldenPath}`);
}
