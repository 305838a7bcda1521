import type { AiMcpServeOutput } from '../../../../generated/types/cli/output/ai-mcp-serve.ts';
import { defineCommand } from '../../command.ts';
import type { Deps } from '../../deps.ts';
import { callTool } from '../../mcp/call.ts';
import { parseSelection, selectionFlags, type ToolSelection } from '../../mcp/tools.ts';
import { readVersion } from '../../version.ts';
import { registryTools } from './mcp-tools.ts';

type Options = ToolSelection & { token?: string };

/** `bbdc ai mcp serve`: an MCP server on stdin/stdout whose tools are bbdc's commands; read-only unless --yolo. */
export const command = defineCommand<Options, AiMcpServeOutput>({
  name: 'ai mcp serve',
  summary: 'Serve bbdc commands as MCP tools over stdio (read-only unless --yolo)',
  description:
    'Each tool is one bbdc command: its flags and arguments as inputs, plus project and repository; the result is the ' +
    "command's --json data. Configure your agent to run `bbdc ai mcp serve --host URL` (token from BBDC_TOKEN, " +
    '--token or `bbdc auth login`).',
  args: [],
  flags: {
    ...selectionFlags,
    token: {
      type: 'string',
      value: 'TOKEN',
      description: 'Personal access token for the tools (else BBDC_TOKEN or the stored one)',
      secret:
        'set BBDC_TOKEN in the agent configuration, or store it with `bbdc auth login HOST --with-token`',
    },
  },
  outputSchema: 'ai-mcp-serve',
  effect: 'safe',
  examples: [
    'bbdc ai mcp serve --host https://bitbucket.example.com',
    'bbdc ai mcp serve --yolo --exclude repo_create',
  ],
  parse: ({ flags }) => ({
    ...parseSelection(flags),
    ...(flags.token ? { token: String(flags.token) } : {}),
  }),
  async run(o, deps) {
    const tools = await registryTools(o);
    const [{ StdioServerTransport }, { createMcpServer }] = await Promise.all([
      import('@modelcontextprotocol/sdk/server/stdio.js'),
      import('../../mcp/server.ts'),
    ]);
    const base: Deps = { ...deps, env: { ...deps.env, ...(o.token && { BBDC_TOKEN: o.token }) } };
    // Calls still running when the client closes stdin are answered before the server closes: end of input
    // means "no more requests", not "drop the answers".
    const inFlight = new Set<Promise<unknown>>();
    const server = createMcpServer(tools, readVersion(), (tool, input) => {
      const call = callTool(tool, input, { deps: base, globals: deps.globals });
      inFlight.add(call);
      void call.finally(() => inFlight.delete(call));
      return call;
    });
    const closed = new Promise<void>((resolve) => {
      server.onclose = () => resolve();
    });
    process.stdin.once('end', async () => {
      while (inFlight.size) await Promise.allSettled([...inFlight]);
      // Let the transport write the last answers before it closes.
      await new Promise((resolve) => setImmediate(resolve));
      await server.close();
    });
    await server.connect(new StdioServerTransport(process.stdin, process.stdout));
    deps.logger.log('info', 'mcp server ready', { tools: tools.length });
    await closed;
    return { tools: tools.map((t) => t.name) };
  },
  // stdout carried the protocol; there is nothing to add for people once the client has gone.
  human() {},
});
