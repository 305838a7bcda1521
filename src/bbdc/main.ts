// The bbdc entry point. `--version` is answered before anything else loads, to keep startup near bare node.
import { readVersion } from './version.ts';

/** Runs bbdc with the process's argv and real dependencies; resolves to the exit code. */
export async function main(argv: string[] = process.argv.slice(2)): Promise<number> {
  if (argv.length === 1 && argv[0] === '--version') {
    process.stdout.write(`bbdc ${readVersion()}\n`);
    return 0;
  }
  const [{ runCli }, { defaultDeps }] = await Promise.all([
    import('./cli/run.ts'),
    import('./default-deps.ts'),
  ]);
  return runCli(argv, defaultDeps());
}
