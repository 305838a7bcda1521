import { Parser, type ReadEntry } from 'tar';
import { RealmforgeError } from '../../core/errors.ts';

/** The bytes of the file `name` at the top of a .tar.gz archive; throws when the archive has none. */
export async function extractFile(archive: Buffer, name: string, archiveName: string): Promise<Buffer> {
  const found = await new Promise<Buffer | undefined>((resolve, reject) => {
    let result: Buffer | undefined;
    const parser = new Parser({
      strict: true,
      onReadEntry: (entry: ReadEntry) => {
        if (entry.type !== 'File' || entry.path.replace(/^\.\//, '') !== name) {
          entry.resume();
          return;
        }
        const chunks: Buffer[] = [];
        entry.on('data', (c: Buffer) => chunks.push(c));
        entry.on('end', () => {
          result = Buffer.concat(chunks);
        });
      },
    });
    parser.on('error', reject);
    parser.on('close', () => resolve(result));
    parser.end(archive);
  }).catch((error) => {
    throw new RealmforgeError(
      'validation',
      `${archiveName} is not a readable .tar.gz archive: ${error.message}`,
      {
        cause: error,
      },
    );
  });
  if (!found) throw new RealmforgeError('validation', `${archiveName} does not contain ${name}`);
  return found;
}
