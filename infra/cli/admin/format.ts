// Plain-text tables for the admin CLI's lists: one row a line, columns padded to the widest value.
export function table(columns: string[], rows: string[][]): string {
  const widths = columns.map((column, i) =>
    Math.max(column.length, ...rows.map((row) => row[i]?.length ?? 0)),
  );
  const line = (cells: string[]) =>
    cells
      .map((cell, i) => cell.padEnd(widths[i] ?? 0))
      .join('  ')
      .trimEnd();
  return [line(columns), ...rows.map(line)].join('\n');
}
