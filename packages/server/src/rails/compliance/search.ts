import { isoOrNull } from '../../platform/render.ts';
import { doc, join, ordered, type RailSearch } from '../../search/sources.ts';

/** The compliance records' search documents: evidence, assessments, attestations and the tenant's obligations. */
export const complianceSearch = {
  tenant: {
    evidence: {
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
              collectedAt: isoOrNull(e.collectedAt),
              expiresAt: isoOrNull(e.expiresAt),
            },
          ),
        ),
    },
    assessment: {
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
    attestation: {
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
              attestedAt: isoOrNull(a.attestedAt),
            },
          ),
        ),
    },
    obligation: {
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
              dueDate: isoOrNull(o.dueDate),
            },
          ),
        ),
    },
  },
} satisfies RailSearch;
