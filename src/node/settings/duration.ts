/**
 * Durations as settings write them: milliseconds, or a number with a unit ("100ms", "10s", "30m"). Read into
 * milliseconds; a default in milliseconds is shown back in the largest unit that divides it.
 */

const durationUnits: Record<string, number> = {
  '': 1,
  ms: 1,
  milli: 1,
  millis: 1,
  millisecond: 1,
  milliseconds: 1,
  s: 1000,
  sec: 1000,
  second: 1000,
  seconds: 1000,
  m: 60_000,
  min: 60_000,
  minute: 60_000,
  minutes: 60_000,
  h: 3_600_000,
  hour: 3_600_000,
  hours: 3_600_000,
};

/** Milliseconds, or undefined when `text` is not a duration. */
export function parseDuration(text: string): number | undefined {
  const m = /^\s*(\d+(?:\.\d+)?)\s*([a-z]*)\s*$/i.exec(text);
  const unit = m ? durationUnits[m[2]!.toLowerCase()] : undefined;
  return m && unit !== undefined ? Math.round(Number(m[1]) * unit) : undefined;
}

const shownUnits: ReadonlyArray<[string, number]> = [
  ['h', 3_600_000],
  ['m', 60_000],
  ['s', 1000],
];

/** 300000 → "5m", 1500 → "1500ms", 0 → "0". */
export function formatDuration(ms: number): string {
  if (ms === 0) return '0';
  for (const [unit, size] of shownUnits) if (ms % size === 0) return `${ms / size}${unit}`;
  return `${ms}ms`;
}
