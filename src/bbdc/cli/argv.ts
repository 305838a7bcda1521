import { valueFlagTokens } from './global-flags.ts';

/** The command words found in argv and argv without them. */
export type SplitArgv = { words: string[]; command?: string; group?: string; rest: string[] };

/**
 * Finds the longest run of leading positional words that names a command (or else a group) among `names`,
 * skipping flags and the values of global value flags wherever they appear.
 */
export function splitCommand(argv: string[], names: string[]): SplitArgv {
  const positions: number[] = [];
  // As many words as the longest name has (`repo settings pull-requests merge-checks list` has five).
  const most = Math.max(1, ...names.map((n) => n.split(' ').length));
  for (let i = 0; i < argv.length && positions.length < most; i++) {
    const token = argv[i];
    if (token === '--') break;
    if (token.startsWith('-')) {
      if (valueFlagTokens.has(token)) i++;
      continue;
    }
    positions.push(i);
  }
  const words = positions.map((i) => argv[i]);
  for (let n = words.length; n > 0; n--) {
    const candidate = words.slice(0, n).join(' ');
    const isCommand = names.includes(candidate);
    const isGroup = names.some((name) => name.startsWith(`${candidate} `));
    if (isCommand || isGroup) {
      const drop = new Set(positions.slice(0, n));
      const rest = argv.filter((_, i) => !drop.has(i));
      return isCommand ? { words, command: candidate, rest } : { words, group: candidate, rest };
    }
  }
  return { words, rest: argv };
}
