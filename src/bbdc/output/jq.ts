// --jq: a jq filter over the --json document, run by jq itself compiled to WebAssembly (jq-wasm), loaded only then.
import { UsageError } from '../../core/errors.ts';

type Jq = { raw(data: string | object, filter: string, flags?: string[]): Promise<string> };
const load = async (): Promise<Jq> => (await import('jq-wasm')).default as Jq;

const jqMessage = (error: unknown) =>
  String((error as Error)?.message ?? error)
    .replace(/\n?jq: \d+ compile errors?$/, '')
    .trim();

/** Fails with a UsageError when `filter` does not compile, before the command sends anything. */
export async function checkJq(filter: string): Promise<void> {
  try {
    // Compiled, never run: the input is null and the branch is never taken.
    await (await load()).raw('null', `if false then (${filter}) else empty end`);
  } catch (error) {
    throw new UsageError(`--jq ${JSON.stringify(filter)} is not a jq filter: ${jqMessage(error)}`);
  }
}

/** jq's output for `document`, strings written raw, as `gh --jq` and `jq -r` write them. */
export async function runJq(document: unknown, filter: string): Promise<string> {
  try {
    const out = await (await load()).raw(JSON.stringify(document), filter, ['-r']);
    return out.endsWith('\n') || !out ? out : `${out}\n`;
  } catch (error) {
    throw new UsageError(`--jq ${JSON.stringify(filter)} failed: ${jqMessage(error)}`);
  }
}
