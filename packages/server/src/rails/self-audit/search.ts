import { isoOrNull } from '../../platform/render.ts';
import { doc, join, ordered, type RailSearch } from '../../search/sources.ts';

/** The self-audit's search documents: its findings. */
export const selfAuditSearch = {
  tenant: {
    finding: {
      prefix: 'fnd',
      load: async (db, where) =>
        (await db.selfAuditFinding.findMany(ordered(where))).map((f) =>
          doc(
            'finding',
            f.id,
            f.title,
            join(f.description, f.controlId, f.systemId),
            { severity: f.severity, status: f.status, control: f.controlId ? [f.controlId] : [] },
            { systemId: f.systemId, createdAt: isoOrNull(f.createdAt) },
          ),
        ),
    },
  },
} satisfies RailSearch;
