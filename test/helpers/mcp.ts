import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';

export interface ToolAnswer<T = any> {
  isError: boolean;
  /** The record on success, the error envelope on failure: parsed from the text content. */
  body: T;
  /** The result's structuredContent: none, since every answer is sent once, as its text. */
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

/**
 * What a tool result says, read the way a model reads it: its text. A JSON answer (a record or an
 * error envelope) is parsed; a document (the playbook) arrives as its markdown.
 */
export function answerOf<T = any>(result: Record<string, unknown>): ToolAnswer<T> {
  const content = (result.content ?? []) as Array<{ type: string; text?: string }>;
  const text = content.find((c) => c.type === 'text')?.text ?? 'null';
  const body = text.startsWith('#') ? { markdown: text } : JSON.parse(text);
  return { isError: result.isError === true, body: body as T, structured: result.structuredContent };
}

export async function callTool<T = any>(
  client: Client,
  name: string,
  args: Record<string, unknown> = {},
): Promise<ToolAnswer<T>> {
  return answerOf<T>(await client.callTool({ name, arguments: args }));
}
