import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import type { ToolResult } from './call.ts';
import type { McpTool } from './tools.ts';

/** An MCP server listing `tools` and answering calls with `call`; connect it to a transport to serve. */
export function createMcpServer(
  tools: McpTool[],
  version: string,
  call: (tool: McpTool, input: Record<string, unknown>) => Promise<ToolResult>,
): Server {
  const server = new Server({ name: 'bbdc', version }, { capabilities: { tools: {} } });
  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: tools.map((t) => ({
      name: t.name,
      title: `bbdc ${t.command.name}`,
      description: t.description,
      inputSchema: t.inputSchema,
      annotations: {
        readOnlyHint: t.safety === 'SAFE',
        destructiveHint: t.safety === 'YOLO',
        openWorldHint: true,
      },
    })),
  }));
  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    const tool = tools.find((t) => t.name === request.params.name);
    if (!tool) {
      return {
        content: [
          { type: 'text', text: `no tool named ${request.params.name} is served; list the tools first` },
        ],
        isError: true,
      };
    }
    return call(tool, (request.params.arguments ?? {}) as Record<string, unknown>);
  });
  return server;
}
