/** Where a command writes: process.stdout/stderr in the shell, string buffers in tests. */
export type Io = { stdout: { write(chunk: string): unknown }; stderr: { write(chunk: string): unknown } };
