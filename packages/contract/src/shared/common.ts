import { z } from 'zod';

export const PAGE_LIMIT_DEFAULT = 50;
export const PAGE_LIMIT_MAX = 200;

/** `limit` and `cursor`, accepted by every list. */
export const PaginationQuery = z.object({
  limit: z.coerce
    .number()
    .int()
    .min(1)
    .max(PAGE_LIMIT_MAX)
    .default(PAGE_LIMIT_DEFAULT)
    .meta({ description: `Page size, 1 to ${PAGE_LIMIT_MAX}.`, examples: [50] }),
  cursor: z
    .string()
    .min(1)
    .max(512)
    .optional()
    .meta({ description: 'Opaque cursor from the previous page.', examples: ['eyJrIjpbIjIwMjYtMTEtMjIiXX0'] }),
});

/** `{ data, cursor }`: `cursor` is null on the last page. */
export function listOf<T extends z.ZodType>(item: T) {
  return z.object({
    data: z
      .array(item)
      .meta({ description: 'The records of this page, in the order the route states (newest first unless said otherwise).' }),
    cursor: z.string().nullable().meta({ description: 'Cursor of the next page; null on the last page.' }),
  });
}

/** A prefixed, time-sortable identifier (`asm_01JD...`). */
export function prefixedId(prefix: string, example: string) {
  return z
    .string()
    .regex(new RegExp(`^${prefix}_[0-9A-HJKMNP-TV-Z]{26}$`))
    .meta({ description: `Identifier with prefix \`${prefix}_\`.`, examples: [example] });
}

/** The largest value of a PostgreSQL `integer` column. */
export const INT32_MAX = 2_147_483_647;

/** A position in a tenant's audit chain (an `integer` column): 1 to 2^31-1. */
export const Seq = z.int().min(1).max(INT32_MAX);

export const Timestamp = z.iso.datetime().meta({ examples: ['2026-11-22T09:30:00.000Z'] });

export const IDEMPOTENCY_KEY_MAX = 255;

export { HEADER_NAMES } from '../wire.ts';

// ---------------------------------------------------------------- references shared by rails
// Each use adds its own description with `.meta({ description })`, so the document still says
// what the reference means where it is used.

/** Id of a control of a shipped framework dictionary (`AIA-RMS-01`). */
export const ControlRef = z
  .string()
  .min(1)
  .max(64)
  .regex(/^[A-Za-z0-9][A-Za-z0-9._-]*$/);

/** The example ids the rails' documents use for a person of the tenant. */
export const EXAMPLE_USER = 'usr_01JD3Z8W2M6Q4X9V7K5T1B0N3R';
export const EXAMPLE_OTHER_USER = 'usr_01JD3Z9A4D2H8K6M0P3R5T7V9X';

/** A person of the tenant (`usr_`): the stakeholders rail's people and the web application's users. */
export const UserId = prefixedId('usr', EXAMPLE_USER);
