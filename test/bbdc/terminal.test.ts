import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { resolveGlobals } from '../../src/bbdc/cli/global-flags.ts';
import { displayWidth, truncateToWidth } from '../../src/bbdc/output/display-width.ts';
import { createUi, terminalSize } from '../../src/bbdc/output/ui.ts';

const test = suite('bbdc terminal: display width, truncation, NO_COLOR and FORCE_COLOR');
const esc = String.fromCharCode(27);

test('display width counts columns: CJK and emoji two, combining marks and ANSI none', () => {
  const cases: [string, number][] = [
    ['abc', 3],
    ['日本語', 6],
    ['한국어', 6],
    ['ｆｕｌｌ', 8],
    ['e\u0301', 1],
    ['👍', 2],
    ['👨‍👩‍👧', 2],
    ['🇯🇵', 2],
    ['❤️', 2],
    [`${esc}[1mbold${esc}[22m`, 4],
    ['tab\u200bzero', 7],
  ];
  for (const [text, width] of cases) assert.is(displayWidth(text), width, JSON.stringify(text));
});

test('truncation fits the width and never splits a character, a grapheme or an escape', () => {
  assert.is(truncateToWidth('日本語テキスト', 7), '日本語…');
  assert.is(
    truncateToWidth('日本語テキスト', 8),
    '日本語…',
    'a wide character that would overflow is left out',
  );
  assert.is(truncateToWidth('a👨‍👩‍👧b', 3), 'a…');
  assert.is(truncateToWidth('short', 9), 'short');
  assert.is(truncateToWidth(`${esc}[1mhello${esc}[22m`, 3), `${esc}[1mhe…${esc}[0m`);
  for (const text of ['日本語テキスト', 'a👨‍👩‍👧b🇯🇵c', 'e\u0301e\u0301e\u0301e\u0301'])
    for (let w = 1; w < 12; w++) assert.ok(displayWidth(truncateToWidth(text, w)) <= w, `${text} at ${w}`);
});

function table(rows: string[][], columns = 80) {
  let out = '';
  const ui = createUi({
    stdout: { write: (t: string) => (out += t) },
    stderr: { write: () => true },
    tty: true,
    color: false,
    columns,
    quiet: false,
    scrub: (t) => t,
  });
  ui.table(['name', 'state'], rows);
  return out.trimEnd().split('\n');
}

test('table columns line up by display width with CJK and emoji cells, and fit the terminal', () => {
  const lines = table([
    ['日本語のリポジトリ', 'open'],
    ['🚀 launch', 'merged'],
    ['plain', 'declined'],
  ]);
  const starts = lines.map((l) => displayWidth(l.slice(0, l.search(/(open|merged|declined|STATE)$/))));
  assert.equal(new Set(starts).size, 1, lines.join('\n'));
  const narrow = table([['日本語のリポジトリ名前がとても長い', 'open']], 20);
  assert.ok(
    narrow.every((l) => displayWidth(l) <= 20),
    narrow.join('\n'),
  );
  assert.match(narrow[1], '…');
});

test('the terminal size: as reported, else COLUMNS and LINES, else 100 x 24; a terminal reporting 0 has none', () => {
  assert.equal(terminalSize({ columns: 132, rows: 40 }, { COLUMNS: '90', LINES: '20' }), {
    columns: 132,
    rows: 40,
  });
  assert.equal(terminalSize({ columns: 0, rows: 0 }, {}), { columns: 100, rows: 24 });
  assert.equal(terminalSize({}, { COLUMNS: '90', LINES: '20' }), { columns: 90, rows: 20 });
  for (const bad of ['', 'wide', '-3', '0', '1.5'])
    assert.equal(terminalSize({ columns: 0 }, { COLUMNS: bad }).columns, 100, `COLUMNS=${bad}`);
});

test('NO_COLOR counts only when non-empty; FORCE_COLOR colours a pipe; --no-color beats both', () => {
  const color = (flags: Record<string, unknown>, env: Record<string, string>, tty: boolean) => {
    const g = resolveGlobals(flags, env);
    const ui = createUi({
      stdout: { write: () => true },
      stderr: { write: () => true },
      tty,
      color: g.color,
      forceColor: g.forceColor,
      columns: 80,
      quiet: false,
      scrub: (t) => t,
    });
    return ui.bold('x') !== 'x';
  };
  assert.is(color({}, {}, true), true);
  assert.is(color({}, { NO_COLOR: '' }, true), true, 'an empty NO_COLOR is unset');
  assert.is(color({}, { NO_COLOR: '1' }, true), false);
  assert.is(color({}, {}, false), false, 'no colour into a pipe');
  assert.is(color({}, { FORCE_COLOR: '1' }, false), true);
  assert.is(color({}, { FORCE_COLOR: '0' }, false), false);
  assert.is(
    color({}, { FORCE_COLOR: '1', NO_COLOR: '1' }, false),
    true,
    'FORCE_COLOR over NO_COLOR, as Node',
  );
  assert.is(color({ color: false }, { FORCE_COLOR: '1' }, true), false, '--no-color wins');
});

test.run();
