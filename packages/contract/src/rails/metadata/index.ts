/**
 * The metadata rail: `key=value` labels a tenant attaches to its own records of any kind, the
 * counts of labels per key and per value (facets), a search over labels and the records that
 * carry a label (items).
 */

export { METADATA_LABEL_KEY_PATTERN, METADATA_RESOURCE_TYPES } from './fields.ts';
export * from './routes.ts';
export * from './schemas.ts';
