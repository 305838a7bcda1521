// PageScanner finds a page's items and fields in its bytes as they arrive, cut anywhere.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { PageScanner } from '../../src/bbdc/api/page-scanner.ts';

const test = suite('PageScanner');

/** Scans `text` cut into chunks of `size` bytes (1: every byte apart); returns the items' texts, fields and end. */
function scan(text: string, size: number) {
  const scanner = new PageScanner();
  const bytes = Buffer.from(text);
  const items: string[] = [];
  for (let i = 0; i < bytes.length; i += size) items.push(...scanner.push(bytes.subarray(i, i + size)));
  return { items, fields: scanner.fields, count: scanner.items, rest: scanner.end() };
}

// Strings with what could be mistaken for structure: quotes, backslashes before quotes, brackets, commas, colons,
// and characters of several bytes (a chunk may end inside one).
const tricky = ['a"b', 'back\\', '\\"', '\\\\"', '{[,:]}', 'é日本😀', '"}, {"x": ['];
const page = {
  size: 4,
  limit: 4,
  filter: { name: 'x,y', nested: [1, { deep: ['],'] }] },
  values: [
    { id: 1, name: tricky[0], links: { self: [{ href: tricky[4] }] } },
    { id: 2, description: tricky.join(''), tags: tricky },
    'a plain string, with a comma',
    [1, [2, [3]]],
  ],
  isLastPage: false,
  start: 0,
  nextPageStart: 4,
};

test('items and fields come out the same wherever the bytes are cut, compact or indented', () => {
  for (const text of [JSON.stringify(page), JSON.stringify(page, null, 2)]) {
    for (const size of [1, 2, 3, 7, 64, text.length]) {
      const { items, fields, count, rest } = scan(text, size);
      assert.equal(
        items.map((t) => JSON.parse(t)),
        page.values,
        `items, chunks of ${size}`,
      );
      assert.is(count, 4);
      const { values: _, ...others } = page;
      assert.equal(fields, others, `fields, chunks of ${size}`);
      assert.is(rest, undefined);
    }
  }
});

test('an item is handed over by the chunk that completes it, before the page has ended', () => {
  const scanner = new PageScanner();
  assert.equal(scanner.push(Buffer.from('{"size":2,"values":[{"id":1},{"i')), ['{"id":1}']);
  assert.equal(scanner.push(Buffer.from('d":2}')), []);
  assert.equal(scanner.push(Buffer.from('],"isLastPage":true}')), ['{"id":2}']);
  assert.equal(scanner.fields, { size: 2, isLastPage: true });
});

test('integers beyond 2^53 in the fields stay exact; an empty values array has no items', () => {
  const { items, fields } = scan('{ "values" : [ ] , "nextPageStart" : 9007199254740993 }', 3);
  assert.equal(items, []);
  assert.equal(fields, { nextPageStart: 9007199254740993n });
});

test('a values field that is no array is read as a field', () => {
  const { items, fields } = scan('{"values":{"a":[1,2],"b":2},"isLastPage":true}', 1);
  assert.equal(items, []);
  assert.equal(fields, { values: { a: [1, 2], b: 2 }, isLastPage: true });
});

test('a body that is no object is kept whole; an empty one is empty; a cut page is an error', () => {
  assert.is(scan('[1,2]', 2).rest, '[1,2]');
  assert.is(scan('not json', 3).rest, 'not json');
  assert.is(scan('  ', 1).rest, '');
  assert.throws(() => scan('{"values":[{"id":1}', 4), /ended before its closing brace/);
});

test.run();
