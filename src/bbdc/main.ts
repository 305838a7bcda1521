// The bbdc entry point.

/** Runs bbdc with the process's argv and real dependencies; resolves to the exit code. */
export async function main(argv: string[] = process.argv.slice(2)): Promise<number> {
  const [{ runCli }, { defaultDeps }] = await Promise.all([
    import('./cli/run.ts'),
    import('./default-deps.ts'),
  ]);
  return runCli(argv, defaultDeps());
}
