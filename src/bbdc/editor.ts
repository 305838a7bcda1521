import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RealmforgeError } from '../core/errors.ts';

/** Reads a stream to its end as UTF-8 text. */
export async function readAll(stream: AsyncIterable<Buffer | string>): Promise<string> {
  let text = '';
  for await (const chunk of stream) text += chunk.toString();
  return text;
}

/** Opens $VISUAL, $EDITOR or vi on a temp file holding `initial` and returns what was saved. */
export function editText(
  initial: string,
  fileName: string,
  env: Readonly<Record<string, string | undefined>>,
): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'bbdc-edit-'));
  const file = join(dir, fileName);
  writeFileSync(file, initial);
  const editor = env.VISUAL || env.EDITOR || 'vi';
  return new Promise<string>((resolve, reject) => {
    // The editor command may carry arguments (`code --wait`), so the shell splits it.
    const child = spawn(`${editor} "$BBDC_EDIT_FILE"`, {
      shell: true,
      stdio: 'inherit',
      env: { ...env, BBDC_EDIT_FILE: file },
    });
    child.on('error', (e) =>
      reject(new RealmforgeError('usage', `could not start the editor ${editor} (${e.message}); set EDITOR`)),
    );
    child.on('close', (code) => {
      if (code !== 0)
        reject(new RealmforgeError('usage', `the editor ${editor} exited with ${code}; nothing was sent`));
      else resolve(readFileSync(file, 'utf8'));
    });
  }).finally(() => rmSync(dir, { recursive: true, force: true }));
}
