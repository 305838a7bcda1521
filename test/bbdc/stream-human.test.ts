// Human output of a streamed list: printed a window at a time, one header, the first window's column widths, and a
// window's rows written before the next page is asked for.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { humanWindow, printHuman, smallWindow } from '../../src/bbdc/output/stream-human.ts';
import { lazyList } from '../../src/bbdc/output/stream-json.ts';
import { createUi, type Ui } from '../../src/bbdc/output/ui.ts';

const test = suite('bbdc streamed human output');
type Data = { names: string[]; readonly count: number; readonly done: boolean };

function world(tty: boolean) {
  const out: string[] = [];
  const ui = createUi({
    stdout: { write: (t: string) => out.push(t) },
    stderr: { write: () => true },
    tty,
    color: false,
    columns: 80,
    quiet: false,
    scrub: (t) => t,
  });
  return { ui, out };
}

/** A list of `names` arriving one by one; `asked` counts the items pulled so far. */
function streamed(names: string[]) {
  const state = { asked: 0 };
  async function* source() {
    for (const n of names) {
      state.asked++;
      yield n;
    }
  }
  return {
    state,
    make: async (): Promise<Data> => {
      let count = 0;
      let done = false;
      // As pagedOutput: count and done are getters, done set when the source ends (truncated, in bbdc's lists).
      async function* counted() {
        for await (const n of source()) {
          count++;
          yield n;
        }
        done = true;
      }
      const data = { names: await lazyList(counted()) } as Data;
      Object.defineProperty(data, 'count', { enumerable: true, get: () => count });
      Object.defineProperty(data, 'done', { enumerable: true, get: () => done });
      return data;
    },
  };
}

const human =
  (calls: number[], out: string[], seen: { asked: number }, asked: number[]) => (d: Data, ui: Ui) => {
    calls.push(d.names.length);
    asked.push(seen.asked);
    if (!d.names.length) ui.notice('none');
    ui.table(
      ['name', 'n'],
      d.names.map((n, i) => [n, String(i)]),
    );
    if (d.done) ui.line(`total ${d.count}`);
    void out;
  };

test("a TTY table continues across windows: one header, the first window's widths, a wider cell truncated", async () => {
  const { ui, out } = world(true);
  const { state, make } = streamed(['a', 'bb', 'cc', 'dddddddddddd', 'e']);
  const calls: number[] = [];
  const asked: number[] = [];
  await printHuman(await make(), human(calls, out, state, asked), ui, 2);
  assert.equal(calls, [2, 2, 1], 'windows of at most 2 items');
  assert.equal(
    asked,
    [3, 5, 5],
    'a window is printed once its items (and one look-ahead) arrived, not the whole list',
  );
  assert.equal(out.join('').trimEnd().split('\n'), [
    'NAME  N',
    'a     0',
    'bb    1',
    'cc    0',
    'ddd…  1',
    'e     0',
    'total 5',
  ]);
});

test('piped output is tab-separated lines window after window; the count is final in the last window', async () => {
  const { ui, out } = world(false);
  const { state, make } = streamed(['a', 'b', 'c', 'd', 'e']);
  const calls: number[] = [];
  await printHuman(await make(), human(calls, out, state, []), ui, 3);
  assert.equal(calls, [3, 2]);
  assert.equal(out.join(''), 'a\t0\nb\t1\nc\t2\nd\t0\ne\t1\ntotal 5\n');
});

test('by default a terminal gets a first window of 1,000 and later ones of 100; piped output windows of 100', async () => {
  const names = Array.from({ length: 1250 }, (_, i) => `n${i}`);
  for (const [tty, windows] of [
    [true, [humanWindow, smallWindow, smallWindow, 50]],
    [false, [...Array(12).fill(smallWindow), 50]],
  ] as const) {
    const { ui, out } = world(tty);
    const { state, make } = streamed(names);
    const calls: number[] = [];
    await printHuman(await make(), human(calls, out, state, []), ui);
    assert.equal(calls, windows, tty ? 'terminal' : 'piped');
  }
});

test('an empty list is one empty window', async () => {
  const { ui, out } = world(true);
  const { state, make } = streamed([]);
  const calls: number[] = [];
  await printHuman(await make(), human(calls, out, state, []), ui, 2);
  assert.equal(calls, [0]);
});

test('data without a streamed list is printed once, collected', async () => {
  const { ui, out } = world(false);
  let got: unknown;
  await printHuman(
    { names: ['x'] },
    (d) => {
      got = d;
    },
    ui,
  );
  assert.equal(got, { names: ['x'] });
  assert.equal(out, []);
});

test.run();
