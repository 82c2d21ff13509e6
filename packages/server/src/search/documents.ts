import { SEARCH_KINDS, type SearchKindId } from '@svc/contract';
import type { Prisma } from '../db/client.ts';
import { scopeToTenant } from '../db/tenant-scope.ts';
import type { SearchDoc } from './engine.ts';
import type { ContentBuild, ContentSource, KindIdOf, MarketplaceSource, RailSearch, SearchScope, TenantSource } from './sources.ts';

/**
 * The documents the indexes hold, read from the sources the rails declare (search/sources.ts).
 * Three sets: reference content (the latest version of each dictionary, the glossary, the
 * crosswalks, profiles and workflows), one tenant's records, and the marketplace's consultants.
 */

/** The sources of every kind, each scope's in the order of the registry: the order of the documents. */
export interface SearchSources {
  readonly content: readonly (ContentSource & { kind: SearchKindId })[];
  readonly tenant: readonly (TenantSource & { kind: SearchKindId })[];
  readonly marketplace: readonly (MarketplaceSource & { kind: SearchKindId })[];
}

// ---------------------------------------------------------------- collecting the rails' sources

/** A list of rails: each with the handlers the search module does not look at, and its sources. */
type Rails = Record<string, { readonly handlers: unknown; readonly search?: RailSearch }>;
/** The kinds of a scope the rails have a source of. */
type Declared<R extends Rails, S extends SearchScope> = {
  [K in keyof R]: R[K] extends { search: infer X } ? (S extends keyof X ? keyof NonNullable<X[S]> : never) : never;
}[keyof R];
/** The kinds of the registry no rail has a source of. */
type Missing<R extends Rails> = { [S in SearchScope]: Exclude<KindIdOf<S>, Declared<R, S>> }[SearchScope];
/** Refuses, at compile time, a list of rails that leaves a kind without a source: the error names the kind. */
type EverySource<R extends Rails> = [Missing<R>] extends [never]
  ? unknown
  : { [K in Missing<R> as `no search source of the kind ${K}`]: K };

/**
 * The sources of the rails' list. A kind of the registry without a source does not compile; two
 * sources of one kind, or two tenant kinds of one id prefix, throw when the list is loaded.
 */
export function collectSearchSources<R extends Rails>(rails: R & EverySource<R>): SearchSources {
  const sourceOf = (scope: SearchScope, kind: SearchKindId) => {
    const found = Object.entries(rails as Rails).flatMap(([rail, { search }]) => {
      const source = (search?.[scope] as Record<string, object> | undefined)?.[kind];
      return source ? [{ rail, source }] : [];
    });
    if (found.length !== 1) {
      throw new Error(
        `Search kind ${kind} needs one ${scope} source in the rails' list; found: ${found.map((f) => f.rail).join(', ') || 'none'}.`,
      );
    }
    return { ...found[0]!.source, kind };
  };
  const inScope = <T>(scope: SearchScope) =>
    SEARCH_KINDS.filter((k) => k.scope === scope).map((k) => sourceOf(scope, k.id) as T & { kind: SearchKindId });
  const sources: SearchSources = {
    content: inScope<ContentSource>('content'),
    tenant: inScope<TenantSource>('tenant'),
    marketplace: inScope<MarketplaceSource>('marketplace'),
  };
  const prefixes = sources.tenant.map((s) => s.prefix);
  const repeated = prefixes.filter((p, i) => prefixes.indexOf(p) !== i);
  if (repeated.length > 0) throw new Error(`Tenant search kinds share the id prefixes ${repeated.join(', ')}.`);
  return sources;
}

let provided: SearchSources | undefined;

/**
 * Makes these the process's sources: the server's list of rails (rails/index.ts) provides the ones
 * it collects when it is loaded. Every index cache of the process (the search rail's, the search
 * agents') reads them, without importing the rails, which import the search rail.
 */
export function provideSearchSources(sources: SearchSources): void {
  provided = sources;
}

/** The sources the rails' list provided. */
export function providedSearchSources(): SearchSources {
  if (!provided) throw new Error('No search sources: the rails list (rails/index.ts) provides them when it is loaded.');
  return provided;
}

// ---------------------------------------------------------------- reading the documents

/** Every document of the content kinds, in a fixed order. */
export async function contentDocuments(prisma: Prisma, sources: SearchSources): Promise<SearchDoc[]> {
  const reads = new Map<(build: ContentBuild) => Promise<unknown>, Promise<unknown>>();
  const build: ContentBuild = {
    prisma,
    once<T>(read: (build: ContentBuild) => Promise<T>): Promise<T> {
      let promise = reads.get(read);
      if (!promise) {
        promise = read(build);
        reads.set(read, promise);
      }
      return promise as Promise<T>;
    },
  };
  return (await Promise.all(sources.content.map((s) => s.load(build)))).flat();
}

/** The version of the content files the content kinds read outside the database (profiles, workflows). */
export function contentFilesVersion(sources: SearchSources): string {
  return sources.content.flatMap((s) => (s.files ? [s.files()] : [])).join('|');
}

/** Every document of the tenant kinds of one tenant, read through the tenant scope. */
export async function tenantDocuments(prisma: Prisma, sources: SearchSources, tenantId: string): Promise<SearchDoc[]> {
  const db = scopeToTenant(prisma, tenantId);
  return (await Promise.all(sources.tenant.map((s) => s.load(db, {})))).flat();
}

/** The current documents of these records of one tenant (a record no longer there has none). */
export async function tenantDocumentsById(
  prisma: Prisma,
  sources: SearchSources,
  tenantId: string,
  ids: readonly string[],
): Promise<SearchDoc[]> {
  const db = scopeToTenant(prisma, tenantId);
  const loads = sources.tenant.map((s) => {
    const mine = ids.filter((id) => id.startsWith(`${s.prefix}_`));
    return mine.length > 0 ? s.load(db, { id: { in: mine } }) : Promise.resolve([]);
  });
  return (await Promise.all(loads)).flat();
}

/**
 * Every consultant of every tenant; each carries its owner and whether it is listed, and a search
 * shows only the listed ones and the caller's own.
 */
export async function marketplaceDocuments(prisma: Prisma, sources: SearchSources): Promise<SearchDoc[]> {
  return (await Promise.all(sources.marketplace.map((s) => s.load(prisma)))).flat();
}
