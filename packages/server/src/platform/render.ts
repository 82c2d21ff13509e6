/**
 * The row-to-record rendering of every rail: a record's timestamps are ISO 8601 UTC strings, from a
 * Date column or from the string a JSON column holds; a record outside the kit is rendered from its
 * schema (`rendererOf`), as the kit renders its own.
 */
import type { z } from 'zod';

export const iso = (d: Date | string) => new Date(d).toISOString();
export const isoOrNull = (d: Date | string | null | undefined) => (d ? iso(d) : null);

type Out<S extends z.ZodObject> = z.infer<S>;
/** The fields of the record a renderer computes from the row instead of copying them. */
type Computed<S extends z.ZodObject, Row> = { readonly [K in keyof Out<S>]?: (row: Row) => Out<S>[K] };
/**
 * What a row's field may hold for the record's field of the same name: the same type, a Date for a
 * timestamp (rendered as its ISO string), a string for a closed set of strings (the column is
 * text; what is written to it is checked on the way in).
 */
type Stored<V> = [V] extends [string] ? string | Date : [V] extends [string | null] ? string | Date | null : V;
/** The row's fields the renderer copies: every field of the record that is neither computed nor `object`. */
type Copied<S extends z.ZodObject, C> = { [K in Exclude<keyof Out<S>, keyof C | 'object'>]: Stored<Out<S>[K]> };

/**
 * The renderer of a record from a row of its model: the record schema's fields, in its order:
 * `object` the schema's literal, a field `computed` gives from the row (a count, a parsed JSON
 * column, a renamed column), any other the row's field of the same name, a Date as its ISO 8601
 * string. The type refuses a row without a field the record copies, or with one of another type.
 * Curried, so that the row's type is named and the rest inferred: `rendererOf<PolicyRow>()(Policy, {...})`.
 */
export const rendererOf =
  <Row extends object>() =>
  <S extends z.ZodObject, C extends Computed<S, Row>>(
    schema: S,
    computed: C & { readonly [K in Exclude<keyof C, keyof Out<S>>]: never },
    ..._rowHoldsTheRest: Row extends Copied<S, C> ? [] : [missing: Exclude<keyof Copied<S, C>, keyof Row> | 'a field of another type']
  ): ((row: Row) => Out<S>) => {
    const shape = schema.shape as Record<string, z.ZodType>;
    const fields = Object.keys(shape).map((key): readonly [string, (row: Record<string, unknown>) => unknown] => {
      const compute = (computed as Record<string, ((row: Record<string, unknown>) => unknown) | undefined>)[key];
      if (compute) return [key, compute];
      if (key === 'object') {
        const literal = (shape.object as unknown as { value: unknown }).value;
        return [key, () => literal];
      }
      return [key, (row) => (row[key] instanceof Date ? (row[key] as Date).toISOString() : row[key])];
    });
    return (row) => {
      const out: Record<string, unknown> = {};
      for (const [key, value] of fields) out[key] = value(row as Record<string, unknown>);
      return out as Out<S>;
    };
  };
