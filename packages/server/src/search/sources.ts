import type { SEARCH_KINDS, SearchKindId, SearchKindSpec } from '@svc/contract';
import type { Prisma } from '../db/client.ts';
import type { scopeToTenant } from '../db/tenant-scope.ts';
import type { FieldValue, SearchDoc } from './engine.ts';

/**
 * What a rail declares to make its records searchable (rails/<rail>/search.ts), and the helpers
 * its sources build documents with. Each kind of the contract's registry (SEARCH_KINDS) has one
 * source, in the rail that serves its records; the server's rail list collects them
 * (search/documents.ts).
 */

export type SearchScope = SearchKindSpec['scope'];
/** The kinds of one scope of the registry. */
export type KindIdOf<S extends SearchScope> = Extract<(typeof SEARCH_KINDS)[number], { scope: S }>['id'];

/** The tenant's view of the client the tenant sources read through (every query carries the tenant). */
export type Scoped = ReturnType<typeof scopeToTenant<Prisma>>;
/** Rows of one tenant kind: all of them, or those with these ids. */
export type Where = { id?: { in: string[] } };

/** A kind of the tenant's records: the id prefix of its records and how their documents are read. */
export interface TenantSource {
  /** Prefix of the record ids (`evd` of `evd_...`): names the kind of a record an audit event names. */
  prefix: string;
  /** The documents of the records `where` selects, in id order. */
  load(db: Scoped, where: Where): Promise<SearchDoc[]>;
}

/**
 * One build of the content index: the client, and the reads several kinds' sources share (the
 * latest version of each dictionary), made once per build.
 */
export interface ContentBuild {
  readonly prisma: Prisma;
  /**
   * The result of `read` in this build: the first source asking runs it, the others share it. A
   * read is known by its identity: pass a function declared once (a module's), not one made per call.
   */
  once<T>(read: (build: ContentBuild) => Promise<T>): Promise<T>;
}

/** A kind of the reference content, the same for every tenant. */
export interface ContentSource {
  /** Every document of the kind, in a fixed order. */
  load(build: ContentBuild): Promise<SearchDoc[]>;
  /**
   * The version of the content files the process read the kind from, when they are not in the
   * database: part of the content index's watermark, so that other files rebuild it.
   */
  files?(): string;
}

/** A kind of the marketplace: the records of every tenant, each with its owner and whether it is listed. */
export interface MarketplaceSource {
  load(prisma: Prisma): Promise<SearchDoc[]>;
}

/** A rail's sources, by scope and kind. */
export interface RailSearch {
  tenant?: { [K in KindIdOf<'tenant'>]?: TenantSource };
  content?: { [K in KindIdOf<'content'>]?: ContentSource };
  marketplace?: { [K in KindIdOf<'marketplace'>]?: MarketplaceSource };
}

// ---------------------------------------------------------------- building a document

/** The text parts present, one a line. */
export const join = (...parts: (string | null | undefined | readonly string[])[]) =>
  parts
    .flatMap((p) => (p === null || p === undefined ? [] : typeof p === 'string' ? [p] : p))
    .filter((p) => p.length > 0)
    .join(' \n');

/** The query of a tenant kind's rows: those `where` selects, in id order. */
export const ordered = (where: Where) => ({ where, orderBy: { id: 'asc' as const } });

/** A document: its facets are shown in the hit too, beside the `extra` fields. */
export function doc(
  kind: SearchKindId,
  ref: string,
  title: string,
  text: string,
  facets: SearchDoc['facets'],
  extra: Record<string, FieldValue> = {},
): SearchDoc {
  const fields: Record<string, FieldValue> = {};
  for (const [k, v] of Object.entries(facets)) if (v !== undefined) fields[k] = v;
  return { kind, ref, title, text, facets, fields: { ...fields, ...extra } };
}
