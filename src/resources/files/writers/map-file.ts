import type { ExportCounts } from '../export-formats.ts';

/** A map format's file as text, and what of the guide it could not hold (short sentences). */
export interface MapFile {
  text: string;
  counts: ExportCounts;
  leftOut: string[];
}

/** "3 spots" / "1 spot": a count in a sentence. */
export const counted = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;
