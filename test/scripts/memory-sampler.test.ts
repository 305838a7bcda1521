// The bench's memory sampler reads prom-client's process series and names where the RSS goes.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { describeSample, memorySample } from '../../scripts/bench/memory-sampler.ts';

const M = 1048576;
const text = `process_resident_memory_bytes ${120 * M}
nodejs_heap_size_total_bytes ${60 * M}
nodejs_heap_size_used_bytes ${40 * M}
nodejs_external_memory_bytes ${10 * M}
nodejs_heap_space_size_total_bytes{space="old"} ${40 * M}
nodejs_heap_space_size_total_bytes{space="new"} ${12 * M}
nodejs_heap_space_size_total_bytes{space="map"} ${100}
`;

test('a sample splits RSS into the V8 heap by space, external memory and the rest', () => {
  const line = describeSample(memorySample(text));
  assert.is(
    line,
    'RSS 120 MB = V8 heap 60 MB (used 40 MB; old 40 MB, new 12 MB) + external 10 MB + the rest 50 MB',
  );
});

test.run();
