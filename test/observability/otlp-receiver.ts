import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after } from 'node:test';

/** A span as OTLP/HTTP JSON carries it (ids in hex), with its attributes flattened. */
export interface ReceivedSpan {
  traceId: string;
  spanId: string;
  parentSpanId: string | undefined;
  name: string;
  /** 1 internal, 2 server, 3 client. */
  kind: number;
  attributes: Record<string, unknown>;
  /** 2 is error. */
  status: { code?: number; message?: string };
  links: { traceId: string; spanId: string }[];
  scope: string;
}

interface OtlpValue {
  stringValue?: string;
  intValue?: string | number;
  boolValue?: boolean;
  doubleValue?: number;
}

const attributeValue = (v: OtlpValue): unknown =>
  v.stringValue ?? (v.intValue !== undefined ? Number(v.intValue) : (v.boolValue ?? v.doubleValue));

/**
 * A local OTLP/HTTP traces receiver, as a collector would run it: it takes what the service's
 * exporter POSTs to /v1/traces and keeps the spans. Closed after the file's tests.
 */
export async function startOtlpReceiver(): Promise<{ endpoint: string; spans: ReceivedSpan[]; posts: string[] }> {
  const spans: ReceivedSpan[] = [];
  const posts: string[] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => {
      body += chunk;
    });
    req.on('end', () => {
      posts.push(`${req.method} ${req.url} ${req.headers['content-type']}`);
      const message = JSON.parse(body) as {
        resourceSpans: { scopeSpans: { scope: { name: string }; spans: any[] }[] }[];
      };
      for (const resource of message.resourceSpans) {
        for (const scoped of resource.scopeSpans) {
          for (const s of scoped.spans) {
            spans.push({
              traceId: s.traceId,
              spanId: s.spanId,
              parentSpanId: s.parentSpanId || undefined,
              name: s.name,
              kind: s.kind,
              attributes: Object.fromEntries(
                (s.attributes ?? []).map((a: { key: string; value: OtlpValue }) => [a.key, attributeValue(a.value)]),
              ),
              status: s.status ?? {},
              links: (s.links ?? []).map((l: { traceId: string; spanId: string }) => ({
                traceId: l.traceId,
                spanId: l.spanId,
              })),
              scope: scoped.scope.name,
            });
          }
        }
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  after(() => new Promise<void>((resolve) => server.close(() => resolve())));
  const { port } = server.address() as AddressInfo;
  return { endpoint: `http://127.0.0.1:${port}`, spans, posts };
}
