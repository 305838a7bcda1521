// Samples the operator's own process series (prom-client's defaults on /metrics) every `everyMs` and keeps the
// sample with the largest RSS, so a peak explains itself: V8's heap by space, external memory, or neither (native).

const mb = (bytes: number) => `${(bytes / 1048576).toFixed(0)} MB`;

/** One /metrics reading of the memory series. */
export type MemorySample = {
  rss: number;
  heapTotal: number;
  heapUsed: number;
  external: number;
  spaces: Map<string, number>;
};

/** The memory series in a /metrics text. */
export function memorySample(text: string): MemorySample {
  const value = (name: string) => Number(new RegExp(`^${name} (\\S+)`, 'm').exec(text)?.[1] ?? 0);
  const spaces = new Map<string, number>();
  for (const m of text.matchAll(/^nodejs_heap_space_size_total_bytes\{space="([^"]+)"\} (\S+)/gm))
    spaces.set(m[1] ?? '', Number(m[2]));
  return {
    rss: value('process_resident_memory_bytes'),
    heapTotal: value('nodejs_heap_size_total_bytes'),
    heapUsed: value('nodejs_heap_size_used_bytes'),
    external: value('nodejs_external_memory_bytes'),
    spaces,
  };
}

/** One line: RSS, V8 heap (total, used, the largest spaces), external, and what is left (code, stacks, native). */
export function describeSample(s: MemorySample): string {
  const top = [...s.spaces]
    .filter(([, v]) => v >= 1048576)
    .sort((a, b) => b[1] - a[1])
    .map(([k, v]) => `${k} ${mb(v)}`)
    .join(', ');
  return `RSS ${mb(s.rss)} = V8 heap ${mb(s.heapTotal)} (used ${mb(s.heapUsed)}; ${top}) + external ${mb(s.external)} + the rest ${mb(s.rss - s.heapTotal - s.external)}`;
}

/** Starts sampling `read()` every `everyMs`; stop() returns the sample with the largest RSS. */
export function sampleMemory(read: () => Promise<string>, everyMs = 2000) {
  let peak: MemorySample | undefined;
  let stopped = false;
  const loop = (async () => {
    while (!stopped) {
      try {
        const s = memorySample(await read());
        if (!peak || s.rss > peak.rss) peak = s;
      } catch {
        // the operator may be between restarts or stopping
      }
      await new Promise((r) => setTimeout(r, everyMs));
    }
  })();
  return {
    async stop(): Promise<MemorySample | undefined> {
      stopped = true;
      await loop;
      return peak;
    },
  };
}
