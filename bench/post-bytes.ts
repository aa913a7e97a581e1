/**
 * A client that hands a body it holds to the socket as it is: node:http over keep-alive
 * connections, the Buffer written once with its length. The upload benches send photos this way
 * rather than with fetch, whose request first copies a 4.9 MB body into a stream of its own in the
 * bench's process: 6-80 ms more a POST on this machine, most of it before the server sees a byte
 * (bench/upload-client.ts). That is the bench client's work, not the server's, and the bare pipeline
 * an upload is compared with is handed its bytes.
 */
import { Agent, request } from 'node:http';

export interface Answer {
  status: number;
  text: string;
}

const agent = new Agent({ keepAlive: true });

/** One POST of `body`, answered in full. */
export function postBytes(url: string, headers: Record<string, string>, body: Buffer): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      { method: 'POST', agent, headers: { ...headers, 'content-length': body.length } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString() }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/** Closes the kept connections, so that a bench process can exit. */
export function closeConnections(): void {
  agent.destroy();
}
