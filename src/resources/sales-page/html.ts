/** Markup made here, safe to put in a page as it is; anything else interpolated is escaped. */
export class Markup {
  readonly text: string;
  constructor(text: string) {
    this.text = text;
  }
  toString(): string {
    return this.text;
  }
}

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Text as it reads in HTML content or a quoted attribute. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ESCAPES[c] as string);
}

function part(value: unknown): string {
  if (value instanceof Markup) return value.text;
  if (Array.isArray(value)) return value.map(part).join('');
  if (value === null || value === undefined || value === false) return '';
  return escapeHtml(String(value));
}

/**
 * A template of markup: every value put in is escaped unless it is Markup itself; lists are joined,
 * and null, undefined and false leave nothing. Creator-written text can only ever show as text.
 */
export function html(strings: TemplateStringsArray, ...values: unknown[]): Markup {
  let out = strings[0] as string;
  for (let i = 0; i < values.length; i++) out += part(values[i]) + (strings[i + 1] as string);
  return new Markup(out);
}

/**
 * A creator's paragraph: lines starting "- " are bullets (a list), other lines run on with line
 * breaks kept.
 */
export function prose(paragraph: string): Markup {
  const blocks: Markup[] = [];
  let bullets: string[] = [];
  let lines: string[] = [];
  const flush = () => {
    if (bullets.length > 0) blocks.push(html`<ul>${bullets.map((b) => html`<li>${b}</li>`)}</ul>`);
    if (lines.length > 0) {
      blocks.push(html`<p>${lines.map((l, i) => (i === 0 ? l : html`<br>${l}`))}</p>`);
    }
    bullets = [];
    lines = [];
  };
  for (const raw of paragraph.split('\n')) {
    const line = raw.trimEnd();
    if (line.trim() === '') continue;
    const bullet = /^\s*- (.*)$/.exec(line);
    if (bullet) {
      if (lines.length > 0) flush();
      bullets.push(bullet[1] as string);
    } else {
      if (bullets.length > 0) flush();
      lines.push(line);
    }
  }
  flush();
  return html`${blocks}`;
}
