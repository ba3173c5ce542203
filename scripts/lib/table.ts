/** A plain-text table with aligned columns, for terminal reports. */

export type Align = 'left' | 'right';

export function formatTable(headers: string[], rows: string[][], align: Align[] = []): string {
  const widths = headers.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: string[]) =>
    cells
      .map((cell, i) => {
        const width = widths[i] ?? 0;
        return align[i] === 'right' ? cell.padStart(width) : cell.padEnd(width);
      })
      .join('  ')
      .trimEnd();
  const rule = widths.map((w) => '─'.repeat(w)).join('  ');
  return [line(headers), rule, ...rows.map(line)].join('\n');
}
