import type { AiMcpToolsOutput } from '../../../../generated/types/cli/output/ai-mcp-tools.ts';
import { defineCommand } from '../../command.ts';
import {
  type McpTool,
  parseSelection,
  selectionFlags,
  selectTools,
  type ToolSelection,
  toolsFromCommands,
} from '../../mcp/tools.ts';

/** The tools `serve` would offer with this selection, made from the whole registry. */
export async function registryTools(selection: ToolSelection): Promise<McpTool[]> {
  const { loadAll } = await import('../../registry.ts');
  return selectTools(toolsFromCommands(await loadAll()), selection);
}

/** `bbdc ai mcp tools`: every tool with SAFE or YOLO, and whether `serve` with the same flags would offer it. */
export const command = defineCommand<ToolSelection, AiMcpToolsOutput>({
  name: 'ai mcp tools',
  summary: 'List the MCP tools, each SAFE (read-only) or YOLO (changes the server)',
  args: [],
  flags: selectionFlags,
  outputSchema: 'ai-mcp-tools',
  effect: 'safe',
  examples: ['bbdc ai mcp tools', 'bbdc ai mcp tools --yolo --json'],
  parse: ({ flags }) => parseSelection(flags),
  async run(o) {
    const { loadAll } = await import('../../registry.ts');
    const all = toolsFromCommands(await loadAll());
    const served = new Set(selectTools(all, o).map((t) => t.name));
    return {
      tools: all.map((t) => ({
        name: t.name,
        command: t.command.name,
        safety: t.safety,
        served: served.has(t.name),
        description: t.command.summary,
      })),
    };
  },
  human(d, ui) {
    ui.table(
      ['tool', 'safety', 'served', 'description'],
      d.tools.map((t) => [t.name, t.safety, t.served ? 'yes' : 'no', t.description]),
    );
    if (d.tools.some((t) => t.safety === 'YOLO' && !t.served))
      ui.notice('YOLO tools are served only with --yolo.');
  },
});
