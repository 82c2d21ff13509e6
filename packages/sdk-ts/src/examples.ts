import { z } from 'zod';

const FORMAT_EXAMPLES: Record<string, string> = {
  datetime: '2026-11-22T09:30:00.000Z',
  date: '2026-11-22',
  time: '09:30:00',
  email: 'user@example.com',
  url: 'https://example.com',
  uuid: '3f2b8c1e-5d4a-4e6f-9a7b-1c2d3e4f5a6b',
  guid: '3f2b8c1e-5d4a-4e6f-9a7b-1c2d3e4f5a6b',
  ipv4: '192.0.2.1',
  ipv6: '2001:db8::1',
  ulid: '01JD3Z8W2M6Q4X9V7K5T1B0N3R',
};

function metaExample(schema: z.ZodType): { found: boolean; value?: unknown } {
  const examples = schema.meta()?.examples;
  if (Array.isArray(examples) && examples.length > 0) return { found: true, value: examples[0] };
  if (examples && typeof examples === 'object' && !Array.isArray(examples)) {
    // JSON-Schema-style map of named examples: `{ name: value }`.
    const first = Object.values(examples)[0];
    if (first !== undefined) return { found: true, value: first };
  }
  return { found: false };
}

function stringExample(schema: z.ZodString): string {
  const format = schema.format ?? undefined;
  if (format && FORMAT_EXAMPLES[format]) return FORMAT_EXAMPLES[format];
  const min = schema.minLength ?? 0;
  const max = schema.maxLength ?? Number.POSITIVE_INFINITY;
  const text = 'example'.padEnd(min, 'x');
  return text.length > max ? text.slice(0, max) : text;
}

function numberExample(schema: z.ZodNumber): number {
  const min = schema.minValue;
  const max = schema.maxValue;
  if (typeof min === 'number' && Number.isFinite(min)) return min;
  if (typeof max === 'number' && Number.isFinite(max) && max < 0) return max;
  return 0;
}

/**
 * A representative value of a zod 4 schema: the first of its registered `.meta({ examples })`
 * when it has one, else one built from its structure (objects field by field, lists of one item,
 * the first enum member, null for nullable fields, plausible strings for known formats).
 * `{ data, cursor }` lists thus become `{ data: [itemExample], cursor: null }`.
 */
export function exampleOf(schema: z.ZodType, depth = 0): unknown {
  const own = metaExample(schema);
  if (own.found) return own.value;
  if (depth > 20) return null;
  const next = depth + 1;
  if (schema instanceof z.ZodDefault) return schema.def.defaultValue ?? exampleOf(schema.unwrap() as z.ZodType, next);
  if (schema instanceof z.ZodPrefault) return exampleOf(schema.unwrap() as z.ZodType, next);
  if (schema instanceof z.ZodOptional) return exampleOf(schema.unwrap() as z.ZodType, next);
  // Null is the honest default of a nullable field: `revokedAt: null` rather than a made-up revocation.
  if (schema instanceof z.ZodNullable) return null;
  if (schema instanceof z.ZodReadonly) return exampleOf(schema.unwrap() as z.ZodType, next);
  if (schema instanceof z.ZodPipe) return exampleOf(schema.in as z.ZodType, next);
  if (schema instanceof z.ZodLazy) return exampleOf(schema.unwrap() as z.ZodType, next);
  if (schema instanceof z.ZodObject) {
    const out: Record<string, unknown> = {};
    for (const [key, field] of Object.entries(schema.shape as Record<string, z.ZodType>)) {
      if (field instanceof z.ZodOptional && !metaExample(field).found && !metaExample(field.unwrap() as z.ZodType).found) continue;
      out[key] = exampleOf(field, next);
    }
    return out;
  }
  if (schema instanceof z.ZodArray) return [exampleOf(schema.element as z.ZodType, next)];
  if (schema instanceof z.ZodTuple) return (schema.def.items as z.ZodType[]).map((item) => exampleOf(item, next));
  if (schema instanceof z.ZodRecord) return {};
  if (schema instanceof z.ZodUnion) {
    const first = (schema.options as z.ZodType[])[0];
    return first ? exampleOf(first, next) : null;
  }
  if (schema instanceof z.ZodIntersection) {
    const left = exampleOf(schema.def.left as z.ZodType, next);
    const right = exampleOf(schema.def.right as z.ZodType, next);
    return typeof left === 'object' && left && typeof right === 'object' && right ? { ...left, ...right } : left;
  }
  if (schema instanceof z.ZodLiteral) return schema.values.values().next().value;
  if (schema instanceof z.ZodEnum) return schema.options[0];
  if (schema instanceof z.ZodString) return stringExample(schema);
  if (schema instanceof z.ZodNumber) return numberExample(schema);
  if (schema instanceof z.ZodBigInt) return 0;
  if (schema instanceof z.ZodBoolean) return true;
  if (schema instanceof z.ZodDate) return FORMAT_EXAMPLES.datetime;
  if (schema instanceof z.ZodNull) return null;
  return null;
}
