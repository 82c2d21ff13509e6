import type { SearchKindId } from '@svc/contract';
import type { Prisma } from '../db/client.ts';
import { scopeToTenant } from '../db/tenant-scope.ts';
import { profileCatalogue } from '../rails/profiles/service.ts';
import { stockCatalogue } from '../rails/workflows-registry/service.ts';
import type { FieldValue, SearchDoc } from './engine.ts';

/**
 * Documents of each kind of the registry (SEARCH_KINDS in the contract), read from its table or
 * content file: what the indexes hold. Three sets: reference content (the latest version of each
 * dictionary, the glossary, the crosswalks, profiles and workflows), one tenant's records, and the
 * marketplace's consultants.
 */

const join = (...parts: (string | null | undefined | readonly string[])[]) =>
  parts
    .flatMap((p) => (p === null || p === undefined ? [] : typeof p === 'string' ? [p] : p))
    .filter((p) => p.length > 0)
    .join(' \n');

const iso = (d: Date | null) => (d ? d.toISOString() : null);

function doc(
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

// ---------------------------------------------------------------- reference content

/** Every document of the content kinds, in a fixed order. */
export async function contentDocuments(prisma: Prisma): Promise<SearchDoc[]> {
  const frameworks = await prisma.framework.findMany({ orderBy: { id: 'asc' } });
  const keys = frameworks.map((f) => `${f.id}@${f.latestVersion}`);
  const byKey = new Map(frameworks.map((f) => [`${f.id}@${f.latestVersion}`, f]));
  const jurisdictionOf = new Map(frameworks.map((f) => [f.id, f.jurisdiction]));
  const inLatest = { where: { versionKey: { in: keys } }, orderBy: [{ versionKey: 'asc' as const }, { ord: 'asc' as const }] };
  const [controls, clauses, questions, obligations, terms, edges] = await Promise.all([
    prisma.frameworkControl.findMany(inLatest),
    prisma.frameworkClause.findMany(inLatest),
    prisma.frameworkQuestion.findMany(inLatest),
    prisma.frameworkObligation.findMany(inLatest),
    prisma.glossaryTerm.findMany({ orderBy: { ord: 'asc' } }),
    prisma.crosswalkEdge.findMany({ orderBy: { seq: 'asc' } }),
  ]);
  const docs: SearchDoc[] = [];
  const dictOf = (versionKey: string) => byKey.get(versionKey)?.id ?? versionKey.slice(0, versionKey.lastIndexOf('@'));
  const scope = (framework: string) => ({ framework: [framework], jurisdiction: [jurisdictionOf.get(framework) ?? ''].filter(Boolean) });

  for (const f of frameworks) {
    docs.push(
      doc(
        'framework',
        f.id,
        f.title,
        join(f.shortTitle, f.description, f.publisher),
        { ...scope(f.id), type: f.kind },
        {
          version: f.latestVersion,
          shortTitle: f.shortTitle,
        },
      ),
    );
  }
  for (const c of controls) {
    const fw = dictOf(c.versionKey);
    docs.push(
      doc(
        'control',
        `${c.versionKey}/${c.id}`,
        c.title,
        join(c.id, c.description, c.category),
        { ...scope(fw), category: c.category },
        {
          controlId: c.id,
          version: c.versionKey,
          clauseRefs: c.clauseRefs,
        },
      ),
    );
  }
  for (const c of clauses) {
    const fw = dictOf(c.versionKey);
    docs.push(doc('clause', `${c.versionKey}/${c.ref}`, c.title, join(c.ref, c.summary), scope(fw), { ref: c.ref, version: c.versionKey }));
  }
  for (const o of obligations) {
    const fw = dictOf(o.versionKey);
    docs.push(
      doc('requirement', `${o.versionKey}/${o.id}`, o.title, join(o.id, o.description, o.actor), scope(fw), {
        obligationId: o.id,
        actor: o.actor,
        clauseRef: o.clauseRef,
        version: o.versionKey,
      }),
    );
  }
  for (const q of questions) {
    const fw = dictOf(q.versionKey);
    docs.push(
      doc(
        'question',
        `${q.versionKey}/${q.id}`,
        q.text,
        join(q.id, q.controlId),
        { ...scope(fw), type: q.answerType, control: [q.controlId] },
        { questionId: q.id, version: q.versionKey },
      ),
    );
  }
  for (const t of terms) {
    docs.push(
      doc('glossary_term', t.id, t.term, join(t.synonyms, t.definition), scope(t.dictionaryId), {
        clauseRef: t.clauseRef,
        synonyms: t.synonyms,
      }),
    );
  }

  // Crosswalk edges: each end titled from the latest version of its dictionary.
  const titles = new Map<string, string>();
  for (const c of controls) titles.set(`${dictOf(c.versionKey)}|control|${c.id}`, c.title);
  for (const c of clauses) titles.set(`${dictOf(c.versionKey)}|clause|${c.ref}`, c.title);
  for (const e of edges) {
    const fromTitle = titles.get(`${e.fromDict}|${e.fromKind}|${e.fromRef}`) ?? null;
    const toTitle = titles.get(`${e.toDict}|${e.toKind}|${e.toRef}`) ?? null;
    docs.push(
      doc(
        'crosswalk',
        `${e.crosswalkId}#${e.ord}`,
        `${e.fromDict} ${e.fromRef} ${e.relationship} ${e.toDict} ${e.toRef}`,
        join(fromTitle, toTitle, e.note),
        { framework: [...new Set([e.fromDict, e.toDict])], relationship: e.relationship, rationale: e.rationale },
        {
          crosswalk: e.crosswalkId,
          from: `${e.fromDict}/${e.fromKind}:${e.fromRef}`,
          to: `${e.toDict}/${e.toKind}:${e.toRef}`,
          fromTitle,
          toTitle,
          strength: e.strength,
        },
      ),
    );
  }

  for (const p of profileCatalogue().profiles) {
    const fws = p.frameworks.map((f) => f.id);
    docs.push(
      doc(
        'profile',
        p.id,
        p.title,
        join(
          p.description,
          p.frameworks.map((f) => f.why),
        ),
        { framework: [...new Set(fws)].sort() },
      ),
    );
  }
  for (const w of stockCatalogue().catalogue.workflows) {
    docs.push(
      doc(
        'workflow',
        w.id,
        w.title,
        join(
          w.description,
          w.steps.map((s) => s.title),
        ),
        { framework: w.frameworks, category: w.category },
        {
          stakeholders: w.stakeholders,
        },
      ),
    );
  }
  return docs;
}

// ---------------------------------------------------------------- one tenant's records

type Scoped = ReturnType<typeof scopeToTenant<Prisma>>;
/** Rows of one tenant kind: all of them, or those with these ids. */
type Where = { id?: { in: string[] } };
const ordered = (where: Where) => ({ where, orderBy: { id: 'asc' as const } });

/** The tenant kinds: the id prefix of their records and how their documents are read. */
export const TENANT_KINDS: readonly { kind: SearchKindId; prefix: string; load(db: Scoped, where: Where): Promise<SearchDoc[]> }[] = [
  {
    kind: 'evidence',
    prefix: 'evd',
    load: async (db, where) =>
      (await db.evidence.findMany(ordered(where))).map((e) =>
        doc(
          'evidence',
          e.id,
          e.title,
          join(e.description, e.kind, e.controlIds, e.systemId),
          { type: e.kind, control: e.controlIds },
          {
            systemId: e.systemId,
            collectedAt: iso(e.collectedAt),
            expiresAt: iso(e.expiresAt),
          },
        ),
      ),
  },
  {
    kind: 'assessment',
    prefix: 'asm',
    load: async (db, where) =>
      (await db.assessment.findMany(ordered(where))).map((a) =>
        doc(
          'assessment',
          a.id,
          a.title ?? `${a.type} assessment of ${a.systemId}`,
          join(a.type, a.systemId, a.jurisdiction),
          { type: a.type, status: a.status, jurisdiction: [a.jurisdiction] },
          { systemId: a.systemId, completion: a.completion },
        ),
      ),
  },
  {
    kind: 'attestation',
    prefix: 'att',
    load: async (db, where) =>
      (await db.attestation.findMany(ordered(where))).map((a) =>
        doc(
          'attestation',
          a.id,
          a.statement,
          join(a.attesterName, a.attesterTitle, a.subjectId),
          { type: a.subjectType },
          {
            subjectId: a.subjectId,
            attesterName: a.attesterName,
            attestedAt: iso(a.attestedAt),
          },
        ),
      ),
  },
  {
    kind: 'obligation',
    prefix: 'obl',
    load: async (db, where) =>
      (await db.obligation.findMany(ordered(where))).map((o) =>
        doc(
          'obligation',
          o.id,
          o.title,
          join(o.description, o.clauseRef, o.actor),
          { framework: [o.frameworkId], status: o.status },
          {
            clauseRef: o.clauseRef,
            dueDate: iso(o.dueDate),
          },
        ),
      ),
  },
  {
    kind: 'finding',
    prefix: 'fnd',
    load: async (db, where) =>
      (await db.selfAuditFinding.findMany(ordered(where))).map((f) =>
        doc(
          'finding',
          f.id,
          f.title,
          join(f.description, f.controlId, f.systemId),
          { severity: f.severity, status: f.status, control: f.controlId ? [f.controlId] : [] },
          { systemId: f.systemId, createdAt: iso(f.createdAt) },
        ),
      ),
  },
  {
    kind: 'policy',
    prefix: 'pol',
    load: async (db, where) =>
      (await db.policy.findMany(ordered(where))).map((p) =>
        doc('policy', p.id, p.title, join(p.controlIds), { status: p.status, control: p.controlIds }, { ownerId: p.ownerId }),
      ),
  },
  {
    kind: 'label',
    prefix: 'lbl',
    load: async (db, where) =>
      (await db.metadataLabel.findMany(ordered(where))).map((l) =>
        doc('label', l.id, l.value, join(l.key, l.resourceId), { type: l.resourceType, category: l.key }, { resourceId: l.resourceId }),
      ),
  },
  {
    kind: 'certification',
    prefix: 'crt',
    load: async (db, where) =>
      (await db.trustCertification.findMany(ordered(where))).map((c) =>
        doc('certification', c.id, c.name, join(c.issuer, c.scope), {}, { issuer: c.issuer, validUntil: iso(c.validUntil) }),
      ),
  },
  {
    kind: 'sub_processor',
    prefix: 'sbp',
    load: async (db, where) =>
      (await db.trustSubProcessor.findMany(ordered(where))).map((s) =>
        doc('sub_processor', s.id, s.name, join(s.purpose, s.region), { jurisdiction: [s.region] }),
      ),
  },
  {
    kind: 'person',
    prefix: 'usr',
    load: async (db, where) =>
      (await db.stakeholderUser.findMany(ordered(where))).map((u) =>
        doc('person', u.id, u.name, join(u.email), { status: u.status }, { email: u.email }),
      ),
  },
];

/** Every document of the tenant kinds of one tenant, read through the tenant scope. */
export async function tenantDocuments(prisma: Prisma, tenantId: string): Promise<SearchDoc[]> {
  const db = scopeToTenant(prisma, tenantId);
  return (await Promise.all(TENANT_KINDS.map((k) => k.load(db, {})))).flat();
}

/** The current documents of these records of one tenant (a record no longer there has none). */
export async function tenantDocumentsById(prisma: Prisma, tenantId: string, ids: readonly string[]): Promise<SearchDoc[]> {
  const db = scopeToTenant(prisma, tenantId);
  const loads = TENANT_KINDS.map((k) => {
    const mine = ids.filter((id) => id.startsWith(`${k.prefix}_`));
    return mine.length > 0 ? k.load(db, { id: { in: mine } }) : Promise.resolve([]);
  });
  return (await Promise.all(loads)).flat();
}

// ---------------------------------------------------------------- the marketplace

/**
 * Every consultant of every tenant with its firm; each carries its owner and whether it is listed,
 * and a search shows only the listed ones and the caller's own.
 */
export async function marketplaceDocuments(prisma: Prisma): Promise<SearchDoc[]> {
  const [consultants, firms] = await Promise.all([
    prisma.specialistConsultant.findMany({ orderBy: { id: 'asc' } }),
    prisma.specialistFirm.findMany({ orderBy: { id: 'asc' } }),
  ]);
  const firmOf = new Map(firms.map((f) => [f.id, f]));
  return consultants.map((c) => {
    const firm = firmOf.get(c.firmId);
    return {
      ...doc(
        'specialist',
        c.id,
        c.name,
        join(c.headline, firm?.name, firm?.description, c.expertise),
        { expertise: c.expertise, jurisdiction: c.jurisdictions, firm: c.firmId },
        { firmName: firm?.name ?? null, headline: c.headline, listed: c.listed },
      ),
      owner: c.tenantId,
      listed: c.listed,
    };
  });
}
