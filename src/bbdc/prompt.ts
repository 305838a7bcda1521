import { createInterface } from 'node:readline';

/** Asks one question on the terminal (stderr), hiding what is typed when `secret` is set. */
export function promptLine(question: string, secret: boolean): Promise<string> {
  return new Promise((resolve) => {
    const rl = createInterface({ input: process.stdin, output: process.stderr, terminal: true });
    if (secret) {
      // Echo nothing after the question so a token typed or pasted is never shown.
      const writer = rl as unknown as { _writeToOutput: (s: string) => void };
      writer._writeToOutput = (s: string) => {
        if (s.includes(question)) process.stderr.write(question);
      };
    }
    rl.question(question, (answer) => {
      if (secret) process.stderr.write('\n');
      rl.close();
      resolve(answer.trim());
    });
  });
}
