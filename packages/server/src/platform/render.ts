/**
 * Helpers of the row-to-record renderers of every rail: a record's timestamps are ISO 8601 UTC
 * strings, from a Date column or from the string a JSON column holds.
 */
export const iso = (d: Date | string) => new Date(d).toISOString();
export const isoOrNull = (d: Date | string | null | undefined) => (d ? iso(d) : null);
