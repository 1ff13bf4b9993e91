// A Markdown table of the report: the columns named in `text` are left-aligned, the others (figures)
// right-aligned.
export const table = (head: string[], rows: (string | number)[][], text: 'all' | readonly number[] = [0]) =>
  [
    `| ${head.join(' | ')} |`,
    `|${head.map((_, i) => (text === 'all' || text.includes(i) ? '---' : '---:')).join('|')}|`,
    ...rows.map((row) => `| ${row.join(' | ')} |`),
  ].join('\n');
