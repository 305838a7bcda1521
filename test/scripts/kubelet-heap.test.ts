// The process kubelet gives Keycloak the heap ceiling its image would take from the container's memory limit (70%),
// so a server given more memory (the scale bench's) gets a bigger heap, as it would in a cluster.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { ContainerConfigError, heapFromLimit } from '../../scripts/testenv/kubelet-env.ts';

const limited = (memory?: string) => ({ name: 'keycloak', resources: memory ? { limits: { memory } } : {} });

test('70% of the limit, in MiB, with a small starting heap', () => {
  assert.equal(heapFromLimit(limited('2Gi')), { JAVA_OPTS_KC_HEAP: '-Xms64m -Xmx1433m' });
  assert.equal(heapFromLimit(limited('4096Mi')), { JAVA_OPTS_KC_HEAP: '-Xms64m -Xmx2867m' });
  assert.equal(heapFromLimit(limited('1G')), { JAVA_OPTS_KC_HEAP: '-Xms64m -Xmx667m' });
});

test('no limit: nothing, so the process keeps its default heap', () => {
  assert.equal(heapFromLimit(limited()), {});
});

test('a limit this kubelet cannot read is a container configuration error naming it', () => {
  assert.throws(
    () => heapFromLimit(limited('lots')),
    (e: Error) => e instanceof ContainerConfigError && /lots/.test(e.message),
  );
});

test.run();
