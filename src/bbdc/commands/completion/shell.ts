import type { CompletionOutput } from '../../../../generated/types/cli/output/completion.ts';
import { defineCommand } from '../../command.ts';
import { bashScript } from '../../completion/bash.ts';
import { fishScript } from '../../completion/fish.ts';
import { completionTree } from '../../completion/tree.ts';
import { zshScript } from '../../completion/zsh.ts';

/** The shells bbdc writes completion scripts for. */
export type Shell = 'bash' | 'zsh' | 'fish';

const render = { bash: bashScript, zsh: zshScript, fish: fishScript };
const install: Record<Shell, string> = {
  bash: 'source <(bbdc completion bash)   # add to ~/.bashrc',
  zsh: 'source <(bbdc completion zsh)   # add to ~/.zshrc after compinit',
  fish: 'bbdc completion fish > ~/.config/fish/completions/bbdc.fish',
};

/** Renders the completion script for one shell from the generated command manifest (no command is imported). */
export async function completionScript(shell: Shell): Promise<string> {
  const [{ groups }, { commandInfos }] = await Promise.all([
    import('../../registry.ts'),
    import('../../cli/manifest.ts'),
  ]);
  return render[shell](completionTree(commandInfos, groups));
}

/** `bbdc completion <shell>`: prints a completion script generated from the command registry. */
export function completionCommand(shell: Shell) {
  return defineCommand<Record<string, never>, CompletionOutput>({
    name: `completion ${shell}`,
    summary: `Print the ${shell} completion script`,
    description: `Completes commands, subcommands and flags. Load it with: ${install[shell]}`,
    args: [],
    flags: {},
    outputSchema: 'completion',
    effect: 'safe',
    examples: [install[shell]],
    parse: () => ({}),
    run: async () => ({ shell, script: await completionScript(shell) }),
    human(d, ui) {
      ui.line(d.script.trimEnd());
    },
  });
}
