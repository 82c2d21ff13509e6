import { createHash } from 'node:crypto';
import type { Database } from '../db/client.ts';
import {
  contentDocuments,
  contentFilesVersion,
  marketplaceDocuments,
  providedSearchSources,
  type SearchSources,
  tenantDocuments,
  tenantDocumentsById,
} from './documents.ts';
import { buildIndex, replaceDocuments, type SearchIndex } from './engine.ts';

/**
 * The indexes of one API process and how they follow writes made through any process.
 *
 * Each index is stamped with the watermark it was built at; every search first reads the current
 * watermarks in one statement and rebuilds an index whose watermark moved:
 * - reference content: the dictionary versions and content bundles loaded, with the version of the
 *   files the process reads content from (the content sources' `files`: profiles, workflows);
 *   rebuilt only when a new content bundle is loaded;
 * - a tenant's records: the seq of its audit chain head, which every mutation moves in the same
 *   transaction as its change, so a committed write is seen by the next search of any process.
 *   The audit events since the index's seq name the records that changed: when they are few and
 *   all searchable, only their documents are replaced; otherwise the tenant's index is rebuilt;
 * - the marketplace: the number of tenants holding consultants and the sum of their heads' seqs.
 * Tenant indexes are kept for the most recently searched tenants only (LRU), and dropped after
 * they have been idle for a while.
 */

export interface Watermarks {
  tenant: string;
  content: string;
  marketplace: string;
}

const WATERMARK_SQL = `SELECT
  (SELECT seq::text FROM audit_chain_heads WHERE tenant_id = $1) AS tenant,
  md5((SELECT coalesce(string_agg(key || '=' || content_hash, ',' ORDER BY key), '') FROM framework_versions)
    || '|' || (SELECT coalesce(string_agg(kind || '=' || hash, ',' ORDER BY kind), '') FROM content_bundles)) AS content,
  (SELECT count(*)::text || ':' || coalesce(sum(h.seq), 0)::text
     FROM (SELECT DISTINCT tenant_id FROM specialist_consultants) c
     JOIN audit_chain_heads h ON h.tenant_id = c.tenant_id) AS marketplace`;

interface Built {
  watermark: string;
  index: SearchIndex;
  usedAt: number;
}

/**
 * One index: the one in use and the build under way. Searches wanting the same watermark share
 * one build; builds run one after the other, each from the index the previous one left.
 */
class Slot {
  current: Built | undefined;
  private pending: { watermark: string; promise: Promise<Built> } | undefined;
  private queue: Promise<unknown> = Promise.resolve();

  async get(watermark: string, build: (previous: Built | undefined) => Promise<SearchIndex>): Promise<SearchIndex> {
    if (this.current?.watermark === watermark) {
      this.current.usedAt = Date.now();
      return this.current.index;
    }
    if (this.pending?.watermark !== watermark) {
      const promise = this.queue.then(async () => {
        if (this.current?.watermark === watermark) return this.current;
        const built = { watermark, index: await build(this.current), usedAt: Date.now() };
        this.current = built;
        return built;
      });
      const pending = { watermark, promise };
      this.pending = pending;
      this.queue = promise.catch(() => undefined);
      void promise
        .finally(() => {
          if (this.pending === pending) this.pending = undefined;
        })
        .catch(() => undefined);
    }
    return (await (this.pending as { promise: Promise<Built> }).promise).index;
  }
}

/** At most this many changed records are applied to a tenant index; more, and it is rebuilt. */
const INCREMENTAL_MAX = 200;

const CHANGED_SQL = `SELECT DISTINCT resource_id FROM audit_events
  WHERE tenant_id = $1 AND seq > $2 AND seq <= $3 LIMIT ${INCREMENTAL_MAX + 1}`;

export interface IndexOptions {
  /** Tenant indexes kept at most (least recently searched dropped first). */
  maxTenants?: number;
  /** A tenant index not searched for this long is dropped. */
  idleMs?: number;
  /** Where the documents come from: by default the sources of the server's rails (rails/index.ts). */
  sources?: SearchSources;
}

const indexesByClient = new WeakMap<object, SearchIndexes>();

/**
 * The indexes of a database client: one set per process and database, shared by the search rail
 * and the agents that search (each built its own copy of the reference content's index before: the
 * same documents built and held twice). Kept fresh by watermarks, whoever asks.
 */
export function searchIndexesFor(db: Database): SearchIndexes {
  let indexes = indexesByClient.get(db.prisma);
  if (!indexes) {
    indexes = new SearchIndexes(db);
    indexesByClient.set(db.prisma, indexes);
  }
  return indexes;
}

export class SearchIndexes {
  private readonly content = new Slot();
  private readonly marketplace = new Slot();
  /** Tenant id -> slot, in least-recently-used order (a Map keeps insertion order). */
  private readonly tenants = new Map<string, Slot>();
  private readonly maxTenants: number;
  private readonly idleMs: number;
  private readonly sources: SearchSources;
  /** Id prefix of a tenant kind's records -> the kind. */
  private readonly kindOfPrefix: Map<string, string>;

  constructor(
    private readonly db: Database,
    opts: IndexOptions = {},
  ) {
    this.maxTenants = opts.maxTenants ?? 200;
    this.idleMs = opts.idleMs ?? 15 * 60_000;
    this.sources = opts.sources ?? providedSearchSources();
    this.kindOfPrefix = new Map(this.sources.tenant.map((s) => [s.prefix, s.kind]));
  }

  async watermarks(tenantId: string): Promise<Watermarks> {
    const [row] = await this.db.sql.query<{ tenant: string | null; content: string; marketplace: string }>(WATERMARK_SQL, [tenantId], {
      prepare: true,
    });
    // The files read by this process belong to the content too.
    const files = createHash('sha256').update(contentFilesVersion(this.sources)).digest('hex').slice(0, 16);
    return { tenant: row?.tenant ?? '0', content: `${row?.content ?? ''}:${files}`, marketplace: row?.marketplace ?? '0:0' };
  }

  contentIndex(w: Watermarks): Promise<SearchIndex> {
    return this.content.get(w.content, async () => buildIndex(await contentDocuments(this.db.prisma, this.sources)));
  }

  marketplaceIndex(w: Watermarks): Promise<SearchIndex> {
    return this.marketplace.get(w.marketplace, async () => buildIndex(await marketplaceDocuments(this.db.prisma, this.sources)));
  }

  tenantIndex(tenantId: string, w: Watermarks): Promise<SearchIndex> {
    let slot = this.tenants.get(tenantId);
    if (slot) this.tenants.delete(tenantId);
    slot ??= new Slot();
    this.tenants.set(tenantId, slot);
    this.evict(tenantId);
    return slot.get(w.tenant, async (previous) => {
      if (previous) {
        // A request that read the head before a newer build finished: that index is already newer.
        if (Number(w.tenant) < Number(previous.watermark)) return previous.index;
        const changed = await this.changedRecords(tenantId, previous.watermark, w.tenant);
        if (changed) {
          // Only the records the audit events name changed: replace their documents in place.
          await replaceDocuments(
            previous.index,
            changed,
            await tenantDocumentsById(
              this.db.prisma,
              this.sources,
              tenantId,
              changed.map((c) => c.ref),
            ),
          );
          return previous.index;
        }
      }
      return buildIndex(await tenantDocuments(this.db.prisma, this.sources, tenantId));
    });
  }

  /**
   * The records the tenant's audit events between two heads name, when they are few and all of
   * searchable kinds; undefined when the index must be rebuilt instead (another kind of record
   * changed, whose change may reach searchable ones, or too many changed).
   */
  private async changedRecords(tenantId: string, from: string, to: string): Promise<{ kind: string; ref: string }[] | undefined> {
    const [a, b] = [Number(from), Number(to)];
    if (!Number.isInteger(a) || !Number.isInteger(b) || b <= a) return undefined;
    const rows = await this.db.sql.query<{ resource_id: string }>(CHANGED_SQL, [tenantId, a, b], { prepare: true });
    if (rows.length > INCREMENTAL_MAX) return undefined;
    const out: { kind: string; ref: string }[] = [];
    for (const { resource_id: id } of rows) {
      const kind = this.kindOfPrefix.get(id.slice(0, id.indexOf('_')));
      if (!kind) return undefined;
      out.push({ kind, ref: id });
    }
    return out;
  }

  /** Tenant indexes held (for tests and metrics). */
  get tenantCount(): number {
    return this.tenants.size;
  }

  private evict(keep: string): void {
    const now = Date.now();
    for (const [id, slot] of this.tenants) {
      if (id === keep) continue;
      if (this.tenants.size > this.maxTenants) {
        this.tenants.delete(id);
        continue;
      }
      if (slot.current && now - slot.current.usedAt > this.idleMs) this.tenants.delete(id);
    }
  }
}
