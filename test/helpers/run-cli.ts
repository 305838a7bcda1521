/** The outcome of one in-process CLI run. */
export type CliResult = { code: number; stdout: string; stderr: string };

import type { Io } from '../../src/core/io.ts';

type Main = (argv: string[], io: Io) => Promise<number>;

/** Runs a CLI's main function with argv, capturing stdout, stderr and the exit code. */
export async function runCli(main: Main, argv: string[]): Promise<CliResult> {
  let stdout = '';
  let stderr = '';
  const io = {
    stdout: {
      write: (s: string) => {
        stdout += s;
        return true;
      },
    },
    stderr: {
      write: (s: string) => {
        stderr += s;
        return true;
      },
    },
  };
  const code = await main(argv, io);
  return { code, stdout, stderr };
}
