// The memory settings `--memory-variants` compares (memory-variants.ts runs them): each differs from the
// Deployment's process environment in one named thing, apart from "before", the settings this replaced.

export type Variant = { name: string; env: Record<string, string> };

/** The settings measured: the Deployment's, the one before them, each of its settings taken back on its own, and
 * two more (one arena; a libuv pool of one). */
export function memoryVariants(base: Record<string, string>): Variant[] {
  const options = base.NODE_OPTIONS ?? '';
  const flag = (name: string, value?: string) =>
    [
      ...options.split(' ').filter((f) => f && !f.startsWith(`${name}=`)),
      ...(value ? [`${name}=${value}`] : []),
    ].join(' ');
  const { MALLOC_ARENA_MAX: _, ...noArenaCap } = base;
  const baseline = { name: 'the Deployment', env: base };
  return [
    baseline,
    {
      name: 'before (semi 4, pool 4, no cap)',
      env: {
        ...noArenaCap,
        NODE_OPTIONS: flag('--max-semi-space-size', '4').replace(/ ?--v8-pool-size=\d+/, ''),
      },
    },
    { name: 'semi-space 4 MB', env: { ...base, NODE_OPTIONS: flag('--max-semi-space-size', '4') } },
    { name: 'malloc arenas uncapped', env: noArenaCap },
    { name: 'MALLOC_ARENA_MAX=1', env: { ...base, MALLOC_ARENA_MAX: '1' } },
    { name: 'V8 pool default (4)', env: { ...base, NODE_OPTIONS: flag('--v8-pool-size') } },
    { name: 'UV_THREADPOOL_SIZE=1', env: { ...base, UV_THREADPOOL_SIZE: '1' } },
    { ...baseline, name: 'the Deployment again' },
  ];
}
