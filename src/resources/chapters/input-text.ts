// How text the creator sent is stored: what is left empty is absent, not an empty string.

/** Text the creator left empty is stored as absent. */
export function filled(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === '' ? undefined : value;
}

/** Paragraphs with the empty ones dropped. */
export function nonEmptyParagraphs(paragraphs: readonly string[]): string[] {
  return paragraphs.filter((p) => p.trim() !== '');
}
