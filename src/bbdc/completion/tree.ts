import type { CommandInfo } from '../cli/command-info.ts';
import { globalFlags } from '../cli/global-flags.ts';
import { flagToken } from '../cli/help.ts';
import type { FlagSpec } from '../command.ts';

/** A word that can follow a command path, with the text shells show beside it. */
export type CompletionWord = { word: string; summary: string };

/** A flag as typed: `--dry-run`, `-R`; `takesValue` flags consume the next word. */
export type CompletionFlag = {
  token: string;
  short?: string;
  summary: string;
  takesValue: boolean;
  choices?: string[];
};

/** What the shell scripts complete: the words after each command path and the flags of each path. */
export type CompletionTree = {
  /** Paths in a stable order: '' (bbdc itself), then every group and command, e.g. `auth`, `auth login`. */
  paths: string[];
  children: Record<string, CompletionWord[]>;
  flags: Record<string, CompletionFlag[]>;
};

function toFlags(flags: Record<string, FlagSpec>): CompletionFlag[] {
  return Object.entries(flags).map(([name, spec]) => ({
    token: flagToken(name, spec),
    ...(spec.shortFlag && { short: `-${spec.shortFlag}` }),
    summary: spec.description,
    takesValue: spec.type !== 'boolean',
    ...(spec.choices && { choices: spec.choices }),
  }));
}

/** Builds the tree from the commands' information and the group summaries; deterministic for the same input. */
export function completionTree(commands: CommandInfo[], groups: Record<string, string>): CompletionTree {
  const children: Record<string, CompletionWord[]> = { '': [] };
  const flags: Record<string, CompletionFlag[]> = {};
  const global = toFlags(globalFlags);
  const paths = [''];
  for (const c of commands) {
    const words = c.name.split(' ');
    for (let i = 0; i < words.length; i++) {
      const parent = words.slice(0, i).join(' ');
      const path = words.slice(0, i + 1).join(' ');
      const isCommand = i === words.length - 1;
      children[parent] ??= [];
      if (!children[parent].some((w) => w.word === words[i])) {
        const summary = isCommand ? c.summary : (groups[path] ?? '');
        children[parent].push({ word: words[i], summary });
        paths.push(path);
      }
      if (!isCommand) flags[path] ??= global;
    }
    const own = toFlags(c.flags).filter((f) => !global.some((g) => g.token === f.token));
    flags[c.name] = [...own, ...global];
  }
  flags[''] = global;
  return { paths, children, flags };
}

/** Quotes text for a POSIX shell (and zsh, fish) as one single-quoted word. */
export function shellQuote(text: string): string {
  return `'${text.replaceAll("'", `'\\''`)}'`;
}
