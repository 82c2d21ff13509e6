/** Output helpers shared by the CLI's commands. */

/** Prints JSON with --json, else the human form. */
export function print(json: boolean, value: unknown, human: () => string): void {
  process.stdout.write(json ? `${JSON.stringify(value, null, 2)}\n` : `${human()}\n`);
}

/** A plain text table with upper-case headers. */
export function table(rows: Record<string, unknown>[], columns: string[]): string {
  if (rows.length === 0) return '(none)';
  const cells = rows.map((r) => columns.map((c) => String(r[c] ?? '')));
  const widths = columns.map((c, i) => Math.max(c.length, ...cells.map((row) => row[i]?.length ?? 0)));
  const line = (vals: string[]) =>
    vals
      .map((v, i) => v.padEnd(widths[i] ?? 0))
      .join('  ')
      .trimEnd();
  return [line(columns.map((c) => c.toUpperCase())), ...cells.map(line)].join('\n');
}

/**
 * A table of the preferred columns the rows have; rows of a shape the CLI does not know fall back
 * to their first scalar fields, so a new response field never breaks the output.
 */
export function autoTable(rows: Record<string, unknown>[], preferred: string[]): string {
  const present = preferred.filter((c) => rows.some((r) => r[c] !== undefined));
  const scalar = (v: unknown) => v === null || ['string', 'number', 'boolean'].includes(typeof v);
  const columns = present.length
    ? present
    : Object.keys(rows[0] ?? {})
        .filter((k) => scalar(rows[0]?.[k]))
        .slice(0, 6);
  return table(rows, columns);
}

/** Progress lines go to stderr with --progress, or when stderr is a terminal; never with --json. */
export function progressWanted(flag: boolean, json: boolean): boolean {
  if (json) return false;
  return flag || process.stderr.isTTY === true;
}
