/** Small helpers shared by the benchmarks: medians, timing and table printing. */

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  if (sorted.length === 0) return Number.NaN;
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

export function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
}

/** Nanoseconds since an arbitrary origin, as a number. */
export function now(): number {
  return Number(process.hrtime.bigint());
}

/** Formats a number with thousands separators and `digits` decimals. */
export function fmt(value: number, digits = 0): string {
  if (!Number.isFinite(value)) return 'n/a';
  return value.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
}

/** Renders a Markdown table (also readable in a terminal): numbers right-aligned. */
export function table(headers: string[], rows: string[][]): string {
  const widths = headers.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const right = headers.map((_, i) => rows.every((r) => /^[-\d.,×%n/a ]*[×%]?$/.test(r[i] ?? '')));
  const cell = (text: string, i: number): string =>
    right[i] ? text.padStart(widths[i]!) : text.padEnd(widths[i]!);
  const line = (cells: string[]): string => `| ${cells.map(cell).join(' | ')} |`;
  const rule = `|${widths.map((w, i) => (right[i] ? `${'-'.repeat(w + 1)}:` : '-'.repeat(w + 2))).join('|')}|`;
  return [line(headers), rule, ...rows.map(line)].join('\n');
}
