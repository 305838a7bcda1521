import type { BranchModelOutput } from '../../../../generated/types/cli/output/branch-model.ts';
import { defineCommand } from '../../command.ts';
import { modelPath, printModel, type RestBranchModel, toModel } from './model.ts';

/** `bbdc branch model inspect`: the development and production branches and the branch prefixes. */
export const command = defineCommand<Record<string, never>, BranchModelOutput>({
  name: 'branch model inspect',
  summary: 'Show the branching model: development and production branches, branch types and prefixes',
  args: [],
  flags: {},
  outputSchema: 'branch-model',
  effect: 'safe',
  examples: ['bbdc branch model inspect -R PROJ/api'],
  parse: () => ({}),
  async run(_o, deps) {
    const repo = await deps.repo();
    const client = await deps.client(repo.host);
    return toModel(repo, await client.get<RestBranchModel | undefined>(modelPath(repo)));
  },
  human: printModel,
});
