// `helm lint --strict` passes for both charts.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { clientChart, helm, operatorChart } from './helm-cli.ts';

test('helm lint passes for the operator chart', async () => {
  const r = await helm(['lint', '--strict', operatorChart]);
  assert.is(r.code, 0, r.stdout + r.stderr);
});

test('helm lint passes for the client chart given its realm', async () => {
  const r = await helm(['lint', '--strict', clientChart, '--set=spec.realmRef.name=customers']);
  assert.is(r.code, 0, r.stdout + r.stderr);
});

test.run();
