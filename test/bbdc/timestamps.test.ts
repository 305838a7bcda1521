// utcIso is bbdc's one ISO 8601 formatter (toISOString loads the time zone on its first call): it must print what
// toISOString prints for every time Date can hold, and refuse the others the same way.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { isoTime, utcIso } from '../../src/bbdc/api/timestamps.ts';

const test = suite('bbdc timestamps');

test('utcIso prints what toISOString prints, at the edges of the 4-digit years and of the Date range', () => {
  const times = [
    0,
    -1,
    1,
    999,
    1_700_000_000_123,
    951_782_400_000, // 2000-02-29
    253_402_300_799_999,
    253_402_300_800_000, // 9999-12-31T23:59:59.999Z, +010000-01-01
    -62_167_219_200_000,
    -62_167_219_200_001, // 0000-01-01, -000001-12-31
    8.64e15,
    -8.64e15,
    -0.5,
    1.9,
  ];
  for (let i = 0; i < 2000; i++) times.push(Math.round((Math.random() * 2 - 1) * 8.64e15));
  for (const ms of times) assert.is(utcIso(ms), new Date(ms).toISOString(), String(ms));
});

test('utcIso refuses a time Date cannot hold with the same RangeError as toISOString', () => {
  for (const ms of [Number.NaN, 8.64e15 + 1, Number.POSITIVE_INFINITY]) {
    assert.throws(
      () => new Date(ms).toISOString(),
      (e: Error) => e instanceof RangeError,
    );
    assert.throws(
      () => utcIso(ms),
      (e: Error) => e instanceof RangeError && e.message === 'Invalid time value',
    );
  }
});

test('isoTime formats with utcIso and keeps an unrepresentable time as its number', () => {
  assert.is(isoTime(1_700_000_000_123, 'x'), '2023-11-14T22:13:20.123Z');
  assert.is(isoTime(9e15, 'x'), '9000000000000000');
  assert.is(isoTime(undefined, 'x'), undefined);
});

test.run();
