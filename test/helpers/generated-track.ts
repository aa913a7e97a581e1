import { seededRandom } from '../../bench/spot-content.ts';
import type { Position } from '../../src/shared/tracks/track.schema.ts';

/** Roughly normal noise (sum of uniforms), mean 0, deviation 1. */
function gaussian(random: () => number): number {
  let sum = 0;
  for (let i = 0; i < 12; i++) sum += random();
  return sum - 6;
}

/** Slow wander: a few sine waves of random phase, like a receiver's drift over minutes. */
function wander(random: () => number, amplitude: number, periodsS: number[]): (t: number) => number {
  const waves = periodsS.map((period) => ({
    period,
    phase: random() * 2 * Math.PI,
    amp: amplitude * (0.5 + random()),
  }));
  return (t) => waves.reduce((sum, w) => sum + w.amp * Math.sin((2 * Math.PI * t) / w.period + w.phase), 0);
}

export interface GeneratedTrack {
  points: Position[];
  truth: { distanceKm: number; gainM: number; descentM: number };
}

export interface TrackOptions {
  lengthKm?: number;
  seed?: number;
  /** Metres; the horizontal and vertical noise scale with it. */
  noise?: number;
  center?: [number, number];
}

const M_PER_DEG = 111_195;

/**
 * A day hike as a watch logs it at one point a second: a loop of `lengthKm` over two summits,
 * switchbacks on the steep parts, speed that varies, a long stop at the top, and receiver noise
 * (slow wander of a few metres plus jitter) on position and elevation. `truth` is measured on the
 * noiseless path, finely sampled.
 */
export function generateHike(options: TrackOptions = {}): GeneratedTrack {
  const { lengthKm = 30, seed = 7, noise = 1, center = [11.85, 46.55] } = options;
  const random = seededRandom(seed);
  const L = lengthKm * 1000;
  // The path as a function of u in [0, 1): a lobed loop with switchback wiggles.
  const shape = (u: number): [number, number] => {
    const th = 2 * Math.PI * u;
    const r = 1 + 0.25 * Math.sin(3 * th) + 0.1 * Math.sin(7 * th + 1);
    const wiggle = 0.015 * Math.sin(160 * th) * Math.max(0, Math.sin(2 * th));
    return [(r + wiggle) * Math.cos(th), (r + wiggle) * Math.sin(th)];
  };
  const elevation = (u: number) =>
    1600 - 450 * Math.cos(2 * Math.PI * u) + 120 * Math.sin(6 * Math.PI * u + 0.5) + 15 * Math.sin(40 * Math.PI * u);

  // Arc length of the unit shape, to scale it to L, and a table from distance to u.
  const samples = 200_000;
  const cumulative = [0];
  let prev = shape(0);
  for (let i = 1; i <= samples; i++) {
    const next = shape(i / samples);
    cumulative.push(cumulative[i - 1]! + Math.hypot(next[0] - prev[0], next[1] - prev[1]));
    prev = next;
  }
  const scale = L / cumulative[samples]!;
  let gain = 0;
  let descent = 0;
  for (let i = 1; i <= samples; i++) {
    const d = elevation(i / samples) - elevation((i - 1) / samples);
    if (d > 0) gain += d;
    else descent -= d;
  }
  let cursor = 0;
  const uAt = (s: number) => {
    while (cursor < samples && cumulative[cursor + 1]! * scale < s) cursor += 1;
    const a = cumulative[cursor]! * scale;
    const b = cumulative[Math.min(samples, cursor + 1)]! * scale;
    return (cursor + (b > a ? (s - a) / (b - a) : 0)) / samples;
  };

  const driftX = wander(random, 2 * noise, [240, 600, 1500]);
  const driftY = wander(random, 2 * noise, [300, 700, 1800]);
  const driftZ = wander(random, 1.5 * noise, [400, 900, 2400]);
  const cosLat = Math.cos((center[1] * Math.PI) / 180);
  const points: Position[] = [];
  const stopAt = L * 0.45;
  let s = 0;
  let t = 0;
  let stopped = 0;
  while (s < L) {
    const u = uAt(s);
    const [x, y] = shape(u);
    const east = x * scale + driftX(t) + 0.1 * noise * gaussian(random);
    const north = y * scale + driftY(t) + 0.1 * noise * gaussian(random);
    const ele = elevation(u) + driftZ(t) + 0.5 * noise * gaussian(random);
    points.push([
      round(center[0] + east / (M_PER_DEG * cosLat), 7),
      round(center[1] + north / M_PER_DEG, 7),
      round(ele, 1),
    ]);
    t += 1;
    if (s >= stopAt && stopped < 600)
      stopped += 1; // a ten-minute stop at the top
    else s += 0.9 + 0.5 * random();
  }
  const [x, y] = shape(0);
  points.push([
    round(center[0] + (x * scale) / (M_PER_DEG * cosLat), 7),
    round(center[1] + (y * scale) / M_PER_DEG, 7),
    round(elevation(0), 1),
  ]);
  return { points, truth: { distanceKm: L / 1000, gainM: gain, descentM: descent } };
}

function round(value: number, digits: number): number {
  const f = 10 ** digits;
  return Math.round(value * f) / f;
}

/** The points as a GPX 1.1 file, the way a watch writes one: one trk, `segments` trkseg, times. */
export function toGpx(points: readonly Position[], segments = 1): string {
  const per = Math.ceil(points.length / segments);
  const start = Date.UTC(2026, 6, 14, 6, 0, 0);
  const out = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<gpx version="1.1" creator="test watch" xmlns="http://www.topografix.com/GPX/1/1">',
    '<metadata><name>Loop &amp; summits</name></metadata>',
    '<trk><name>Morning hike</name><type>hiking</type>',
  ];
  for (let seg = 0; seg < segments; seg++) {
    out.push('<trkseg>');
    for (let i = seg * per; i < Math.min(points.length, (seg + 1) * per); i++) {
      const [lon, lat, ele] = points[i]!;
      const time = new Date(start + i * 1000).toISOString();
      const eleTag = ele === undefined ? '' : `<ele>${ele}</ele>`;
      out.push(`<trkpt lat="${lat}" lon="${lon}">${eleTag}<time>${time}</time></trkpt>`);
    }
    out.push('</trkseg>');
  }
  out.push('</trk>', '</gpx>');
  return out.join('\n');
}
