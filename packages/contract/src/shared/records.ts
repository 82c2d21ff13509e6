/**
 * The pieces every record schema and its examples repeat: the `object` field with its
 * description, the stamps (`createdBy`, `createdAt`, `updatedAt`), example ids and instants, and
 * the `{ id }` path parameters. A rail builds its records from these so that the document says
 * the same thing in the same words everywhere, and a rail file holds only what is its own.
 */
import { z } from 'zod';
import { prefixedId, Timestamp } from './common.ts';

// ---------------------------------------------------------------- the `object` field

/** The description of a record's `object` field, naming one of the rail's objects as its example. */
export function objectDescription(example: string): string {
  return `Type of the object, constant for the schema (for example \`${example}\`); lets a client tell records apart in mixed lists and webhook payloads.`;
}

/** `object: z.literal(name)` described with `objectDescription(example)` (the rail's first object by default). */
export function objectField<const T extends string>(name: T, example: string = name) {
  return z.literal(name).meta({ description: objectDescription(example) });
}

// ---------------------------------------------------------------- stamps

export const CREATED_BY_DESCRIPTION = 'Id of the API key (or operator credential) whose request created the record.';
export const CREATED_BY_KEY_DESCRIPTION = 'Id of the API key whose request created the record.';
export const CREATED_AT_DESCRIPTION = 'When the record was created: ISO 8601 UTC timestamp with milliseconds.';
export const UPDATED_AT_DESCRIPTION =
  'When the record last changed: ISO 8601 UTC timestamp with milliseconds; equals `createdAt` until the first change.';

/** `createdBy` and `createdAt` of a record schema (spread them where they stand: `...created()`). */
export function created(createdByDescription: string = CREATED_BY_DESCRIPTION) {
  return {
    createdBy: z.string().meta({ description: createdByDescription }),
    createdAt: Timestamp.meta({ description: CREATED_AT_DESCRIPTION }),
  };
}

/** `createdBy`, `createdAt` and `updatedAt` of a record schema (`...stamps()`). */
export function stamps(updatedAtDescription: string = UPDATED_AT_DESCRIPTION, createdByDescription: string = CREATED_BY_DESCRIPTION) {
  return { ...created(createdByDescription), updatedAt: Timestamp.meta({ description: updatedAtDescription }) };
}

// ---------------------------------------------------------------- examples

/** The time-sortable part of the example ids the documents use. */
export const EXAMPLE_ULID = '01JD3Z8W2M6Q4X9V7K5T1B0N3R';

/** The example id with `prefix` (`exampleId('asm')` is `asm_01JD3Z8W2M6Q4X9V7K5T1B0N3R`). */
export function exampleId<const P extends string>(prefix: P): `${P}_01JD3Z8W2M6Q4X9V7K5T1B0N3R` {
  return `${prefix}_${EXAMPLE_ULID}` as `${P}_01JD3Z8W2M6Q4X9V7K5T1B0N3R`;
}

/** The API key the examples' records were created by. */
export const EXAMPLE_KEY = exampleId('key');

/** The instant most examples are stamped with. */
export const EXAMPLE_AT = '2026-11-22T09:30:00.000Z';

/** The example stamps of a record created by `by` at `at` and not changed since. */
export function exampleStamps(at: string = EXAMPLE_AT, by: string = EXAMPLE_KEY) {
  return { createdBy: by, createdAt: at, updatedAt: at };
}

// ---------------------------------------------------------------- path parameters

/** `{ id }` path parameters of a record with id prefix `prefix`, its example `example`. */
export function idParams(prefix: string, example: string = exampleId(prefix)) {
  return z.object({ id: prefixedId(prefix, example) });
}
