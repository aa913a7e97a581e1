import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface Mailbox {
  /** smtp://127.0.0.1:<port>, for SMTP_URL. */
  url: string;
  /** Every message received, as sent (headers and body). */
  messages: string[];
  /** Waits for the next message after those already read, and returns its text body decoded. */
  next(): Promise<{ to: string; subject: string; body: string }>;
  close(): Promise<void>;
}

/** Undoes quoted-printable (soft line breaks, =XX bytes), as mail clients do. */
function decodeQuotedPrintable(text: string): string {
  const bytes = text
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
  return Buffer.from(bytes, 'latin1').toString('utf8');
}

/** A real SMTP server on a free loopback port, keeping what it receives; `acceptAfterMs` slows its answer to each message. */
export async function startMailbox({ acceptAfterMs = 0 } = {}): Promise<Mailbox> {
  const messages: string[] = [];
  const waiting: Array<() => void> = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, _session, done) {
      let data = '';
      stream.setEncoding('utf8');
      stream.on('data', (chunk: string) => {
        data += chunk;
      });
      stream.on('end', () => {
        messages.push(data);
        for (const wake of waiting.splice(0)) wake();
        setTimeout(done, acceptAfterMs);
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  let read = 0;
  return {
    url: `smtp://127.0.0.1:${port}`,
    messages,
    async next() {
      const deadline = Date.now() + 10_000;
      while (messages.length <= read) {
        if (Date.now() > deadline) throw new Error('no mail arrived within 10 s');
        await new Promise<void>((resolve) => {
          waiting.push(resolve);
          setTimeout(resolve, 200);
        });
      }
      const raw = messages[read++] as string;
      const split = raw.indexOf('\r\n\r\n');
      const head = raw.slice(0, split);
      const header = (name: string) => new RegExp(`^${name}: (.*)$`, 'im').exec(head)?.[1]?.trim() ?? '';
      const qp = /quoted-printable/i.test(header('Content-Transfer-Encoding'));
      const body = raw.slice(split + 4);
      return { to: header('To'), subject: header('Subject'), body: qp ? decodeQuotedPrintable(body) : body };
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
