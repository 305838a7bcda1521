// Free loopback ports, and retrying a start when another process took the port first.
import { existsSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';

/** A TCP port on 127.0.0.1 that was free a moment ago. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/** Whether a log file says the process could not bind its port. */
export function portWasBusy(logFile: string): boolean {
  if (!existsSync(logFile)) return false;
  return /address already in use|EADDRINUSE|could not bind|Port .* in use/i.test(
    readFileSync(logFile, 'utf8'),
  );
}

/** Runs `start` up to `attempts` times, retrying only when the failure was a busy port. */
export async function withPortRetry<T>(
  name: string,
  start: (attempt: number) => Promise<T>,
  busy: (error: unknown) => boolean,
  attempts = 3,
): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await start(attempt);
    } catch (error) {
      if (attempt >= attempts || !busy(error)) throw error;
      process.stderr.write(
        `testenv: ${name}: port was busy, retrying with another (${attempt}/${attempts})\n`,
      );
    }
  }
}
