/** Helpers shared by the data, risk and search agents. */

/** A 422 naming the input field the data refuses; a 404 for a record the tenant does not have. */
export { invalid, notFound } from '../../errors.ts';

/** Rounds to `digits` decimals, with -0 read as 0 so that the JSON bytes do not depend on a sign. */
export const round = (n: number, digits = 4): number => {
  const f = 10 ** digits;
  const r = Math.round(n * f) / f;
  return Object.is(r, -0) ? 0 : r;
};

/** Code-point order of strings (never the locale's), so that sorting gives the same bytes everywhere. */
export const cmp = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

export const byId = <T extends { id: string }>(a: T, b: T) => cmp(a.id, b.id);

export { isoOrNull as iso } from '../../platform/render.ts';

const DAY_MS = 86_400_000;

/** Whole days from `from` to `to` (ISO timestamps or dates), floored. */
export const daysFrom = (from: string, to: string): number => Math.floor((Date.parse(to) - Date.parse(from)) / DAY_MS);

/** The calendar date `days` after an ISO moment (UTC). */
export const addDays = (at: string, days: number): string => new Date(Date.parse(at) + days * DAY_MS).toISOString().slice(0, 10);

/** Words of a text, lower-cased, letters and digits only. */
export const wordsOf = (text: string): string[] => text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
