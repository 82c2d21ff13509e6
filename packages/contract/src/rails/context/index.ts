/**
 * The context rail (`/v1/context`, growth): documents the tenant uploads (their text), and what
 * is computed from them or from the tenant's records: a document's type (`classify`), the clause
 * references and obligations it contains, the controls it maps to, the gaps of a framework and
 * what to close first.
 */

export * from './routes.ts';
export * from './schemas.ts';
