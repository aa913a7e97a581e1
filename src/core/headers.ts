/** A request header as Node hands it over: absent, one value, or (for a few names) every value. */
export type HeaderValue = string | string[] | undefined;

/** A header's value, trimmed; the first one where Node keeps several. */
export function headerText(value: HeaderValue): string | undefined {
  return (Array.isArray(value) ? value[0] : value)?.trim();
}
