/**
 * Field notes that name a fixed list depending on another field (a place's sub-types by its kind):
 * no enum can say them, so the note is the list, and it goes with the field into every tool that
 * has it. tools/list says every other field note once (src/transports/tool-list.ts).
 */
const notesForEveryTool = new Set<string>();

/** Marks a field note that every tool with the field must repeat; answers the note. */
export function fixedListNote(note: string): string {
  notesForEveryTool.add(note);
  return note;
}

export function isFixedListNote(note: string): boolean {
  return notesForEveryTool.has(note);
}
