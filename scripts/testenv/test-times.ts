// Loaded before each e2e suite (scripts/test.ts): the set-up's wall time and each test's, so a slow suite shows
// where its time goes (printed with a failure, or always with TEST_VERBOSE=1).
import { test } from 'uvu';

let started = Date.now();
let first = true;
const seconds = () => `${((Date.now() - started) / 1000).toFixed(1)} s`;

test.before.each(() => {
  if (first) process.stdout.write(`\n[${seconds()}] set-up\n`);
  first = false;
  started = Date.now();
});
test.after.each((state) => {
  process.stdout.write(`\n[${seconds()}] ${state.__test__}\n`);
});
