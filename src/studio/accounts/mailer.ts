import type { Transporter } from 'nodemailer';
import type { Log } from '../../core/log.ts';

export interface Mail {
  to: string;
  subject: string;
  text: string;
}

/** Sends the studio's mail: reset, first-password and address confirmation links. */
export interface Mailer {
  send(mail: Mail): Promise<void>;
  /** Whether mail leaves through SMTP (false: it is written to the log). */
  readonly delivers: boolean;
}

/**
 * Through SMTP when SMTP_URL is set (nodemailer: `smtp://user:pass@host:587`, `smtps://…:465`);
 * otherwise each message is written to the log at `warn`, so a developer or an operator without
 * mail can still hand a creator their link. Messages carry links, never a password.
 */
export function createMailer(settings: { smtpUrl: string | undefined; mailFrom: string }, log: Log): Mailer {
  if (!settings.smtpUrl) {
    return {
      delivers: false,
      async send(mail) {
        log.warn({ mailTo: mail.to, subject: mail.subject, body: mail.text }, 'mail not sent (SMTP_URL unset): logged');
      },
    };
  }
  const { smtpUrl, mailFrom } = settings;
  // nodemailer is loaded by the first message, not by the start: most processes send none.
  let transport: Promise<Transporter> | undefined;
  return {
    delivers: true,
    async send(mail) {
      transport ??= import('nodemailer').then(({ createTransport }) => createTransport(smtpUrl, { from: mailFrom }));
      await (await transport).sendMail({ to: mail.to, subject: mail.subject, text: mail.text });
    },
  };
}
