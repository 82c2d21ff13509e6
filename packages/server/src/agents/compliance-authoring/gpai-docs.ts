import { groupAAgents } from '@svc/contract';
import type { GpaiSummary } from '../../generated/prisma/client.ts';
import { buildDocument } from '../../rails/gpai-summary/service.ts';
import { defineAgent } from '../types.ts';
import { cmp, notFound, percent, tenantDb } from './shared.ts';

/**
 * gpai-docs: the disclosure pack of a general-purpose AI model provider, one per training-content
 * summary: each item of Art. 53(1)(a)-(d) (Annex XI technical documentation, Annex XII downstream
 * information, copyright policy, public training-content summary) is present when the records the
 * rules name for it exist; the Art. 51(2) presumption follows the training compute.
 */

export const rules = {
  /** Art. 51(2): systemic risk is presumed above this training compute (floating-point operations). */
  systemicRiskFlops: 1e25,
  /** Disclosure documents of the public-disclosure rail that give the downstream information. */
  downstreamDocumentKinds: ['art-53-gpai', 'model-card'],
  items: [
    {
      id: 'intended-tasks',
      ref: 'EU AI Act Art. 53(1)(a), Annex XI 1(1)(a)',
      title: 'Tasks the model is intended to perform and systems it can be integrated in',
      check: 'profile',
    },
    {
      id: 'model-identity',
      ref: 'EU AI Act Art. 53(1)(a), Annex XI 1(1)(d)',
      title: 'Model name, version and provider',
      check: 'template:general.model,general.provider',
    },
    {
      id: 'release-date',
      ref: 'EU AI Act Art. 53(1)(a), Annex XI 1(1)(c)',
      title: 'Date of release and methods of distribution',
      check: 'placed-on-market',
    },
    {
      id: 'modalities',
      ref: 'EU AI Act Art. 53(1)(a), Annex XI 1(1)(f)',
      title: 'Modality and format of inputs and outputs',
      check: 'template:general.modalities',
    },
    {
      id: 'training-data',
      ref: 'EU AI Act Art. 53(1)(a), Annex XI 2(1)(c)',
      title: 'Data used for training, testing and validation',
      check: 'template:sources.any',
    },
    {
      id: 'compute-energy',
      ref: 'EU AI Act Art. 53(1)(a), Annex XI 2(1)(d)-(e)',
      title: 'Computational resources and energy used for training',
      check: 'energy',
    },
    {
      id: 'downstream-information',
      ref: 'EU AI Act Art. 53(1)(b), Annex XII',
      title: 'Information and documentation for downstream providers',
      check: 'downstream-document',
    },
    {
      id: 'copyright-policy',
      ref: 'EU AI Act Art. 53(1)(c)',
      title: 'Policy to comply with Union copyright law and text-and-data-mining opt-outs',
      check: 'template:processing.tdm-opt-out',
    },
    {
      id: 'training-content-summary',
      ref: 'EU AI Act Art. 53(1)(d)',
      title: 'Public summary of training content, following the template',
      check: 'summary-published',
    },
  ],
};

interface ModelFacts {
  summaryId: string;
  modelName: string;
  modelVersion: string;
  placedOnMarketAt: string | null;
  publishedVersion: number | null;
  /** The template's sections as the gpai_summary rail fills them. */
  templateSections: { id: string; required: boolean; filled: boolean }[];
  templateMissing: string[];
  energy: { id: string; computeFlops: number } | null;
  copyrightPolicyId: string | null;
  dataSourceIds: string[];
  /** Public-disclosure profiles that link the summary, and their disclosure documents. */
  profiles: { systemId: string; purpose: string }[];
  documents: { id: string; kind: string; systemId: string; version: number }[];
}

export const gpaiDocs = defineAgent({
  spec: groupAAgents.gpaiDocs,
  ruleSet: { id: 'gpai-docs-rules', version: '1.0.0', rules },
  dictionaryVersion: (ctx) => ctx.versionOf('eu-ai-act'),
  async gather(ctx, input): Promise<{ models: ModelFacts[] }> {
    const db = tenantDb(ctx);
    const where = { ...(input.summaryId ? { id: input.summaryId } : {}), ...(input.modelName ? { modelName: input.modelName } : {}) };
    const rows = (await db.gpaiSummary.findMany({ where, orderBy: { id: 'asc' } })) as GpaiSummary[];
    if (input.summaryId && rows.length === 0) throw notFound(`Summary ${input.summaryId} was not found.`, 'summaryId');
    const models: ModelFacts[] = [];
    for (const row of rows) {
      const doc = await buildDocument(db, row as never, ctx.now);
      const [energy, policy, sources, profiles] = await Promise.all([
        db.gpaiEnergyDisclosure.findFirst({ where: { summaryId: row.id }, orderBy: { id: 'desc' } }),
        db.gpaiCopyrightPolicy.findFirst({ where: { summaryId: row.id }, orderBy: { version: 'desc' } }),
        db.gpaiDataSource.findMany({ where: { summaryId: row.id }, orderBy: { id: 'asc' }, select: { id: true } }),
        db.publicDisclosureProfile.findMany({ where: { gpaiSummaryIds: { has: row.id } }, orderBy: { systemId: 'asc' } }),
      ]);
      const documents = profiles.length
        ? await db.disclosureDocument.findMany({ where: { systemId: { in: profiles.map((p) => p.systemId) } }, orderBy: { id: 'asc' } })
        : [];
      models.push({
        summaryId: row.id,
        modelName: row.modelName,
        modelVersion: row.modelVersion,
        placedOnMarketAt: row.placedOnMarketAt,
        publishedVersion: row.publishedVersion,
        templateSections: doc.sections.map((s) => ({ id: s.id, required: s.required, filled: s.filled })),
        templateMissing: [...doc.missing],
        energy: energy ? { id: energy.id, computeFlops: energy.computeFlops } : null,
        copyrightPolicyId: policy?.id ?? null,
        dataSourceIds: sources.map((s) => s.id),
        profiles: profiles.map((p) => ({ systemId: p.systemId, purpose: p.purpose })),
        documents: documents.map((d) => ({ id: d.id, kind: d.kind, systemId: d.systemId, version: d.version })),
      });
    }
    return { models };
  },
  decide(_input, facts, r: typeof rules) {
    const models = facts.models.map((m) => {
      const items = r.items.map((item) => {
        let sources: { type: string; id: string }[] = [];
        let present = false;
        const [check, arg] = item.check.split(':') as [string, string | undefined];
        switch (check) {
          case 'profile':
            present = m.profiles.some((p) => p.purpose.length > 0);
            sources = m.profiles.map((p) => ({ type: 'profile', id: p.systemId }));
            break;
          case 'template': {
            const ids = (arg ?? '').split(',');
            present = ids.every((id) => m.templateSections.find((s) => s.id === id)?.filled === true);
            sources = present ? [{ type: 'gpai_summary', id: m.summaryId }] : [];
            if (present && ids.includes('processing.tdm-opt-out') && m.copyrightPolicyId)
              sources.push({ type: 'copyright_policy', id: m.copyrightPolicyId });
            if (present && ids.includes('sources.any')) sources.push(...m.dataSourceIds.map((id) => ({ type: 'data_source', id })));
            break;
          }
          case 'placed-on-market':
            present = Boolean(m.placedOnMarketAt);
            sources = present ? [{ type: 'gpai_summary', id: m.summaryId }] : [];
            break;
          case 'energy':
            present = m.energy !== null;
            sources = m.energy ? [{ type: 'energy_disclosure', id: m.energy.id }] : [];
            break;
          case 'downstream-document': {
            const docs = m.documents.filter((d) => r.downstreamDocumentKinds.includes(d.kind));
            present = docs.length > 0;
            sources = docs.map((d) => ({ type: 'disclosure_document', id: d.id }));
            break;
          }
          case 'summary-published':
            present = m.publishedVersion !== null && m.templateMissing.length === 0;
            sources = m.publishedVersion !== null ? [{ type: 'gpai_summary', id: m.summaryId }] : [];
            break;
        }
        return { id: item.id, ref: item.ref, title: item.title, present, sources };
      });
      const missing = items.filter((i) => !i.present).map((i) => i.id);
      return {
        summaryId: m.summaryId,
        modelName: m.modelName,
        modelVersion: m.modelVersion,
        systemicRiskPresumed: m.energy ? m.energy.computeFlops > r.systemicRiskFlops : null,
        items,
        missing,
        completenessPercent: percent(items.length - missing.length, items.length),
      };
    });
    return {
      models,
      missing: models.length === 0 ? ['summary'] : models.flatMap((m) => m.missing.map((x) => `${m.summaryId}:${x}`)).sort(cmp),
    };
  },
});
