import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';

export interface ToolAnswer<T = any> {
  isError: boolean;
  /** The record on success, the error envelope on failure: parsed from the text content. */
  body: T;
  structured: unknown;
}

/** The official MCP client, connected with a key. */
export async function mcpClient(mcpUrl: string, key: string): Promise<Client> {
  const client = new Client({ name: 'creator-api-tests', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL(mcpUrl), {
    requestInit: { headers: { authorization: `Bearer ${key}` } },
  });
  await client.connect(transport);
  return client;
}

export async function callTool<T = any>(
  client: Client,
  name: string,
  args: Record<string, unknown> = {},
): Promise<ToolAnswer<T>> {
  const result = await client.callTool({ name, arguments: args });
  const content = result.content as Array<{ type: string; text?: string }>;
  const text = content.find((c) => c.type === 'text')?.text ?? 'null';
  // A document (the playbook) arrives as its markdown alone, with no structured content.
  const body = result.structuredContent === undefined && !text.startsWith('{') ? { markdown: text } : JSON.parse(text);
  return { isError: result.isError === true, body: body as T, structured: result.structuredContent };
}
