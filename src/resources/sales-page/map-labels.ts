import RBush from 'rbush';
import { textWidth, twoLines } from './map-text.ts';

/** An axis-aligned box in map units, y down. */
export interface Rect {
  minX: number;
  minY: number;
  maxX: number;
  maxY: number;
}

/** A marker: a disc the labels keep clear of. */
export interface Disc {
  x: number;
  y: number;
  r: number;
}

/** A line of a placed label: its text, where it starts, its baseline and the width it is set to. */
export interface LabelLine {
  text: string;
  x: number;
  baseline: number;
  width: number;
}

/** A label that found room: its lines and the box it keeps to itself (halo included). */
export interface PlacedLabel {
  lines: LabelLine[];
  box: Rect;
}

export interface LabelStyle {
  fontSize: number;
  /** Gap between a marker's edge and its label. */
  gap: number;
  /** Room kept around each label's letters (the halo drawn behind them, and air). */
  pad: number;
}

/** Above and below the baseline, in ems: more than the fonts asked for reach (ascent 0.9, descent 0.21). */
const ASCENT = 0.96;
const DESCENT = 0.26;
const LINE_HEIGHT = 1.15;

/** What the tree holds: an obstacle's box, a marker's (with its disc), or a placed label's (with its owner). */
type Item = Rect & { disc?: Disc; owner?: number };

/** A place a label could take: its box, and its lines as they would be set there. */
interface Candidate {
  box: Rect;
  lines: LabelLine[];
}

const overlaps = (a: Rect, b: Rect) => a.minX < b.maxX && b.minX < a.maxX && a.minY < b.maxY && b.minY < a.maxY;

/** Whether a disc and a box share any point (the nearest point of the box lies within the radius). */
function discMeetsRect(d: Disc, r: Rect): boolean {
  const dx = d.x - Math.max(r.minX, Math.min(d.x, r.maxX));
  const dy = d.y - Math.max(r.minY, Math.min(d.y, r.maxY));
  return dx * dx + dy * dy < d.r * d.r;
}

/**
 * Where a block of text `width` by `height` may sit around a marker, in order of preference:
 * right, left, then the four diagonals, then above and below. Each is the block's top-left corner.
 */
function positions(m: Disc, width: number, height: number, gap: number): { x: number; y: number; align: Align }[] {
  const d = m.r + gap;
  const diag = d * Math.SQRT1_2;
  return [
    { x: m.x + d, y: m.y - height / 2, align: 'start' },
    { x: m.x - d - width, y: m.y - height / 2, align: 'end' },
    { x: m.x + diag, y: m.y - diag - height, align: 'start' },
    { x: m.x + diag, y: m.y + diag, align: 'start' },
    { x: m.x - diag - width, y: m.y - diag - height, align: 'end' },
    { x: m.x - diag - width, y: m.y + diag, align: 'end' },
    { x: m.x - width / 2, y: m.y - d - height, align: 'middle' },
    { x: m.x - width / 2, y: m.y + d, align: 'middle' },
  ];
}

type Align = 'start' | 'middle' | 'end';

/** The lines of a block set at (x, y) with the given alignment, each pinned to its measured width. */
function setLines(texts: readonly string[], x: number, y: number, width: number, align: Align, s: LabelStyle) {
  return texts.map((text, i): LabelLine => {
    const w = textWidth(text, s.fontSize);
    const left = align === 'start' ? x : align === 'end' ? x + width - w : x + (width - w) / 2;
    return { text, x: left, baseline: y + ASCENT * s.fontSize + i * LINE_HEIGHT * s.fontSize, width: w };
  });
}

/** Every place a label could take, in order of preference: one line around the marker, then two. */
function candidatesOf(text: string, marker: Disc, style: LabelStyle): Candidate[] {
  const split = twoLines(text);
  return (split ? [[text], split] : [[text]]).flatMap((lines) => {
    const width = Math.max(...lines.map((l) => textWidth(l, style.fontSize)));
    const height = (ASCENT + DESCENT + (lines.length - 1) * LINE_HEIGHT) * style.fontSize;
    const outer = { width: width + 2 * style.pad, height: height + 2 * style.pad };
    return positions(marker, outer.width, outer.height, style.gap).map((at) => ({
      box: { minX: at.x, minY: at.y, maxX: at.x + outer.width, maxY: at.y + outer.height },
      lines: setLines(lines, at.x + style.pad, at.y + style.pad, width, at.align, style),
    }));
  });
}

/**
 * Labels beside markers so that no label overlaps another label or any marker or obstacle, and
 * none leaves the view: a greedy placer over an R-tree, in the order given (earlier labels get the
 * better places). Each label tries the positions around its marker on one line, then on two lines
 * broken at a space. When none is free but one is blocked by a single earlier label, that label
 * is moved to another free place of its own if it has one. A label still without room is left out
 * (null) rather than drawn over something or cut at the edge: the marker's number still names it.
 */
export function placeLabels(
  labels: readonly { text: string; marker: Disc }[],
  view: { width: number; height: number },
  obstacles: readonly Rect[],
  style: LabelStyle,
): (PlacedLabel | null)[] {
  const tree = new RBush<Item>();
  tree.load([
    ...obstacles.map((o): Item => ({ minX: o.minX, minY: o.minY, maxX: o.maxX, maxY: o.maxY })),
    ...labels.map(
      ({ marker: m }): Item => ({
        minX: m.x - m.r,
        minY: m.y - m.r,
        maxX: m.x + m.r,
        maxY: m.y + m.r,
        disc: m,
      }),
    ),
  ]);
  const inView = (box: Rect) => box.minX >= 0 && box.minY >= 0 && box.maxX <= view.width && box.maxY <= view.height;
  const blockers = (box: Rect) =>
    tree.search(box).filter((hit) => (hit.disc ? discMeetsRect(hit.disc, box) : overlaps(hit, box)));
  const fits = (box: Rect) => inView(box) && blockers(box).length === 0;

  const options = labels.map((l) => candidatesOf(l.text, l.marker, style));
  const placed: (Candidate | null)[] = labels.map(() => null);
  const items: (Item | null)[] = labels.map(() => null);
  const put = (i: number, c: Candidate) => {
    placed[i] = c;
    items[i] = { ...c.box, owner: i };
    tree.insert(items[i]);
  };
  const take = (i: number) => {
    tree.remove(items[i] as Item);
    placed[i] = items[i] = null;
  };

  /** Frees `c` for label i by moving the one earlier label in its way, if that label has somewhere else to go. */
  const moveAside = (i: number, c: Candidate): boolean => {
    if (!inView(c.box)) return false;
    const hits = blockers(c.box);
    const owner = hits[0]?.owner;
    if (owner === undefined || hits.length !== 1) return false;
    const before = placed[owner] as Candidate;
    take(owner);
    put(i, c);
    const elsewhere = (options[owner] as Candidate[]).find((o) => o !== before && fits(o.box));
    if (elsewhere) {
      put(owner, elsewhere);
      return true;
    }
    take(i);
    put(owner, before);
    return false;
  };

  options.forEach((candidates, i) => {
    const free = candidates.find((c) => fits(c.box));
    if (free) put(i, free);
    else candidates.some((c) => moveAside(i, c));
  });
  return placed.map((c) => c && { lines: c.lines, box: c.box });
}
