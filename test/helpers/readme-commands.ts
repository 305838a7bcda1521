// The shell commands of one README section, so an e2e suite can show that it runs what the README tells a user.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const readme = join(import.meta.dirname, '..', '..', 'README.md');

/** The text of the README section under `## <heading>`, up to the next `## ` heading. */
export function readmeSection(heading: string): string {
  const text = readFileSync(readme, 'utf8');
  const start = text.indexOf(`\n## ${heading}\n`);
  if (start < 0) throw new Error(`README.md has no section "## ${heading}"`);
  const end = text.indexOf('\n## ', start + 1);
  return text.slice(start, end < 0 ? undefined : end);
}

/**
 * The commands of the section's ```sh blocks, one per entry: continuation lines joined, comments and heredoc
 * bodies left out, quotes removed and spaces collapsed (`helm install a --set 'x={y}'` -> `helm install a --set x={y}`).
 */
export function shellCommands(section: string): string[] {
  const commands: string[] = [];
  for (const block of section.matchAll(/```sh\n([\s\S]*?)```/g)) {
    let heredoc: string | undefined;
    let pending = '';
    for (const line of block[1].split('\n')) {
      if (heredoc !== undefined) {
        if (line.trim() === heredoc) heredoc = undefined;
        continue;
      }
      const code = line.replace(/(^|\s)#.*$/, '').trimEnd();
      if (code.endsWith('\\')) {
        pending += `${code.slice(0, -1)} `;
        continue;
      }
      const command = (pending + code).replaceAll("'", '').replace(/\s+/g, ' ').trim();
      pending = '';
      if (!command) continue;
      heredoc = /<<-?\s*(\w+)/.exec(command)?.[1];
      commands.push(command.replace(/\s*<<-?\s*\w+$/, ''));
    }
  }
  return commands;
}

/** The body of the heredoc that follows the command starting with `prefix` in the section. */
export function heredocOf(section: string, prefix: string): string {
  const lines = section.split('\n');
  const at = lines.findIndex((l) => l.startsWith(prefix) && /<<-?\s*'?\w+'?$/.test(l));
  if (at < 0) throw new Error(`README.md: no heredoc after a command starting "${prefix}"`);
  const marker = /<<-?\s*'?(\w+)'?$/.exec(lines[at])?.[1];
  const end = lines.findIndex((l, i) => i > at && l.trim() === marker);
  return `${lines.slice(at + 1, end).join('\n')}\n`;
}
