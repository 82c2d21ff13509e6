import {
  GPAI_SYSTEMIC_RISK_FLOPS,
  GpaiCopyrightPolicy,
  GpaiDataSource,
  type GpaiDocument,
  GpaiSummary,
  GpaiSummaryVersion,
  type GpaiTemplate,
  type gpaiCopyrightPolicies,
  type gpaiDataSources,
  type gpaiEnergyDisclosures,
  type gpaiSummaries,
  type UpdateGpaiSummaryBody,
} from '@svc/contract';
import { z } from 'zod';
import { dataFile } from '../../content/data-file.ts';
import type { Prisma, Tx } from '../../db/client.ts';
import { decodeCursor, toPage } from '../../db/pagination.ts';
import { scopeToTenant } from '../../db/tenant-scope.ts';
import { ApiError, invalid, notFound } from '../../errors.ts';
import type {
  GpaiEnergyDisclosure as EnergyRow,
  GpaiCopyrightPolicy as PolicyRow,
  GpaiDataSource as SourceRow,
  GpaiSummary as SummaryRow,
  GpaiSummaryVersion as VersionRow,
} from '../../generated/prisma/client.ts';
import type { Store } from '../../kit.ts';
import { lockKey, lockRecord, type Page, type PageQuery } from '../../platform/records.ts';
import { rendererOf } from '../../platform/render.ts';

/**
 * The gpai_summary rail: training-content summaries (AI Act Art. 53(1)(d)) following the sections
 * of the Commission's template (data: `content/gpai-summary/template.json`), their data sources,
 * copyright policy and energy disclosure. Completeness is computed from the records each section
 * names; the Art. 51(2) flag from the disclosed compute.
 */

// ---------------------------------------------------------------- template (data)

const FILLED_BY = /^(summary\.(provider|model|modalities|illegal-content)|data-sources(:[a-z_]+(,[a-z_]+)*)?|copyright-policy)$/;

export const GpaiTemplateSchema = z
  .strictObject({
    version: z.string().regex(/^\d+\.\d+\.\d+$/),
    title: z.string().min(10),
    publisher: z.string().min(3),
    published: z.string().min(4),
    legalBasis: z.string().min(5),
    description: z.string().min(20),
    sections: z
      .array(
        z.strictObject({
          id: z.string().regex(/^[a-z]+\.[a-z-]+$/),
          number: z.string().regex(/^\d+(\.\d+)?$/),
          title: z.string().min(3),
          content: z.string().min(10),
          source: z.string().min(10),
          required: z.boolean(),
          filledBy: z.string().regex(FILLED_BY),
        }),
      )
      .min(1),
  })
  .superRefine((d, ctx) => {
    const ids = d.sections.map((s) => s.id);
    for (const [i, id] of ids.entries())
      if (ids.indexOf(id) !== i) ctx.addIssue({ code: 'custom', path: ['sections', i, 'id'], message: `${id} twice` });
    if (!d.sections.some((s) => s.required)) ctx.addIssue({ code: 'custom', path: ['sections'], message: 'no required section' });
  });
export type GpaiTemplateData = z.infer<typeof GpaiTemplateSchema>;

/** The sections of the Commission's template (`content/gpai-summary/template.json`). */
export const GPAI_TEMPLATE = dataFile('gpai-summary/template.json', GpaiTemplateSchema);
export const GPAI_TEMPLATE_PATH = GPAI_TEMPLATE.path;
export const readGpaiTemplate = GPAI_TEMPLATE.read;
/** The template of the content folder in use, read and checked once per file. */
export const gpaiTemplate = GPAI_TEMPLATE.current;
const templateVersion = GPAI_TEMPLATE.versionKey;

export function renderTemplate(): z.infer<typeof GpaiTemplate> {
  const t = gpaiTemplate();
  return {
    object: 'svc.gpai_summary.template',
    version: templateVersion(),
    title: t.title,
    publisher: t.publisher,
    published: t.published,
    legalBasis: t.legalBasis,
    sections: t.sections.map((s) => ({ ...s })),
  };
}

// ---------------------------------------------------------------- rows

type Summary = z.infer<typeof GpaiSummary>;

export const renderSummary = rendererOf<SummaryRow>()(GpaiSummary, {
  provider: (r) => r.provider as Summary['provider'],
  modalities: (r) => (r.modalities ?? []) as Summary['modalities'],
  trainingDataSize: (r) => (r.trainingDataSize ?? []) as Summary['trainingDataSize'],
});

export const renderSource = rendererOf<SourceRow>()(GpaiDataSource, {
  crawler: (r) => (r.crawler ?? null) as z.infer<typeof GpaiDataSource>['crawler'],
  topDomains: (r) => r.topDomains ?? [],
});

const COPYRIGHT_SOURCE = 'Regulation (EU) 2024/1689 Art. 53(1)(c)';

export const renderPolicy = rendererOf<PolicyRow>()(GpaiCopyrightPolicy, {
  optOutMethods: (r) => (r.optOutMethods ?? []) as z.infer<typeof GpaiCopyrightPolicy>['optOutMethods'],
  source: () => COPYRIGHT_SOURCE,
});

const ENERGY_SOURCES = ['Regulation (EU) 2024/1689 Annex XI Section 1 point 2(d) and (e)', 'Regulation (EU) 2024/1689 Art. 51(2)'];

/** Art. 51(2): presumed high-impact capabilities when the cumulative training compute is greater than 10^25 FLOPs. */
export const systemicRiskPresumed = (flops: number) => flops > GPAI_SYSTEMIC_RISK_FLOPS;

// ---------------------------------------------------------------- checks

/** 422 naming the first value of the list given twice. */
function checkOnce(field: string, values: readonly string[]): void {
  const dup = values.findIndex((v, i) => values.indexOf(v) !== i);
  if (dup >= 0) throw invalid(`${field}[${dup}]`, `${values[dup]} is named twice.`);
}

function checkModalities(modalities: string[] | undefined, sizes: { modality: string }[] | undefined): void {
  const mods = modalities ?? [];
  checkOnce('modalities', mods);
  for (const [i, s] of (sizes ?? []).entries()) {
    if (!mods.includes(s.modality)) throw invalid(`trainingDataSize[${i}].modality`, `${s.modality} is not among the modalities.`);
    if ((sizes ?? []).findIndex((x) => x.modality === s.modality) !== i)
      throw invalid(`trainingDataSize[${i}].modality`, `${s.modality} is given twice.`);
  }
}

/** The summary a data source, policy or disclosure is attached to: 422 when unknown, 409 unless a draft. */
async function draftSummary(db: Tx, id: string): Promise<SummaryRow> {
  const row = await db.gpaiSummary.findFirst({ where: { id } });
  if (!row) throw invalid('summaryId', `Summary ${id} does not exist in this tenant.`);
  if (row.status !== 'draft') {
    throw new ApiError(
      'conflict',
      `Summary ${id} is ${row.status} (version ${row.version}); change it first, which opens version ${row.version + 1} as a draft.`,
      [{ field: 'status', issue: 'invalid_value', message: `current state: ${row.status}` }],
    );
  }
  return row;
}

// ---------------------------------------------------------------- stores

export const summaryStore: Store<typeof gpaiSummaries> = {
  model: 'gpaiSummary',
  render: renderSummary,
  create: async ({ who, body }) => {
    checkModalities(body.modalities, body.trainingDataSize);
    return {
      modelName: body.modelName,
      modelVersion: body.modelVersion,
      provider: body.provider,
      placedOnMarketAt: body.placedOnMarketAt ?? null,
      modalities: body.modalities ?? [],
      trainingDataSize: body.trainingDataSize ?? [],
      illegalContentMeasures: body.illegalContentMeasures ?? null,
      status: 'draft',
      version: 1,
      publishedVersion: null,
      publishedAt: null,
      createdBy: who.actor,
    };
  },
  // One summary per model name (without case) and version: checked under a lock on the pair.
  prepare: async ({ tx, who, body }) => {
    await lockKey(tx, `svc.gpai_summary.summary:${who.tenantId}:${body.modelName.toLowerCase()}:${body.modelVersion}`);
    const taken = await scopeToTenant(tx, who.tenantId).gpaiSummary.findFirst({
      where: { modelName: { equals: body.modelName, mode: 'insensitive' }, modelVersion: body.modelVersion },
      select: { id: true },
    });
    if (taken) {
      throw new ApiError('conflict', `A summary of ${body.modelName} ${body.modelVersion} exists: ${taken.id}.`, [
        { field: 'modelName', issue: 'invalid_value', message: 'taken' },
      ]);
    }
  },
  auditData: (s) => ({ modelName: s.modelName, modelVersion: s.modelVersion }),
  transitions: {
    update: {
      set: (row: SummaryRow, _now, body) => summaryChanges(row, body),
      auditData: (s, row: SummaryRow, body) => ({
        changed: Object.keys(summaryChanges(row, body)).filter((k) => k !== 'status' && k !== 'version'),
        version: s.version,
        newVersion: row.status === 'published',
      }),
    },
    publish: {
      // Only a complete summary is published (422 listing the missing sections otherwise); the
      // document as published, generated at the publication's moment, is kept as the version.
      guard: async ({ tx, who, row, now }) => {
        const summary = row as SummaryRow;
        const db = scopeToTenant(tx, who.tenantId);
        const doc = await buildDocument(db, summary, now);
        if (!doc.complete) {
          throw new ApiError(
            'validation_failed',
            `Summary ${summary.id} cannot be published: the template's required sections ${doc.missing.join(', ')} are not filled.`,
            doc.missing.map((m) => ({
              field: `sections.${m}`,
              issue: 'missing',
              message: gpaiTemplate().sections.find((s) => s.id === m)?.title ?? m,
            })),
          );
        }
        await db.gpaiSummaryVersion.create({
          data: {
            tenantId: who.tenantId,
            summaryId: summary.id,
            version: summary.version,
            document: doc as object,
            publishedBy: who.actor,
            publishedAt: now,
          },
        });
      },
      set: (row: SummaryRow, now) => ({ publishedVersion: row.version, publishedAt: now }),
      auditData: (_s, row: SummaryRow) => ({ version: row.version }),
    },
  },
};

/**
 * The fields a change of a summary sets: 422 when it gives none. A published summary opens its
 * next version as a draft.
 */
function summaryChanges(row: SummaryRow, body: z.infer<typeof UpdateGpaiSummaryBody>): Record<string, unknown> {
  if (Object.values(body).every((v) => v === undefined)) throw invalid('body', 'Nothing to change: give at least one field.', 'missing');
  const modalities = body.modalities ?? row.modalities;
  const sizes = body.trainingDataSize ?? (row.trainingDataSize as { modality: string }[]);
  if (body.modalities || body.trainingDataSize) checkModalities(modalities, sizes);
  const data: Record<string, unknown> = {};
  if (body.provider) data.provider = body.provider;
  if (body.placedOnMarketAt) data.placedOnMarketAt = body.placedOnMarketAt;
  if (body.modalities) data.modalities = body.modalities;
  if (body.trainingDataSize) data.trainingDataSize = body.trainingDataSize;
  if (body.illegalContentMeasures) data.illegalContentMeasures = body.illegalContentMeasures;
  if (row.status === 'published') {
    data.status = 'draft';
    data.version = row.version + 1;
  }
  return data;
}

export const dataSourceStore: Store<typeof gpaiDataSources> = {
  model: 'gpaiDataSource',
  render: renderSource,
  create: async ({ db, who, body }) => {
    const summary = await draftSummary(db, body.summaryId);
    if (body.type === 'crawled') {
      if (!body.crawler) throw invalid('crawler', 'Crawled data needs its crawler (template section 2.3).');
      if (!body.topDomains?.length)
        throw invalid('topDomains', 'Crawled data needs at least one of its most relevant domains (template section 2.3).');
    } else {
      if (body.crawler) throw invalid('crawler', `A crawler is given for crawled data only, not ${body.type}.`);
      if (body.topDomains?.length) throw invalid('topDomains', `Domains are given for crawled data only, not ${body.type}.`);
    }
    if (body.collectedFrom && body.collectedTo && body.collectedTo < body.collectedFrom) {
      throw invalid('collectedTo', 'The collection period ends before it starts.');
    }
    return {
      summaryId: summary.id,
      type: body.type,
      name: body.name,
      description: body.description,
      size: body.size ?? null,
      collectedFrom: body.collectedFrom ?? null,
      collectedTo: body.collectedTo ?? null,
      licence: body.licence ?? null,
      crawler: body.crawler ?? null,
      topDomains: [...new Set(body.topDomains ?? [])],
      summaryVersion: summary.version,
      createdBy: who.actor,
    };
  },
  auditData: (s) => ({ summaryId: s.summaryId, type: s.type, name: s.name }),
};

export const copyrightPolicyStore: Store<typeof gpaiCopyrightPolicies> = {
  model: 'gpaiCopyrightPolicy',
  render: renderPolicy,
  create: async ({ db, who, body }) => {
    const summary = await draftSummary(db, body.summaryId);
    checkOnce('optOutMethods', body.optOutMethods);
    return {
      summaryId: summary.id,
      optOutMethods: body.optOutMethods,
      description: body.description,
      complaintContact: body.complaintContact,
      policyUrl: body.policyUrl ?? null,
      effectiveFrom: body.effectiveFrom ?? new Date().toISOString().slice(0, 10),
      createdBy: who.actor,
    };
  },
  // Numbered in the write's transaction with the summary locked: policies recorded at once take the next versions in turn.
  prepare: async ({ tx, who, data }) => {
    const summaryId = data.summaryId as string;
    await lockRecord(tx, 'gpai_summaries', who.tenantId, summaryId);
    data.version = (await scopeToTenant(tx, who.tenantId).gpaiCopyrightPolicy.count({ where: { summaryId } })) + 1;
  },
  auditData: (p) => ({ summaryId: p.summaryId, version: p.version, optOutMethods: p.optOutMethods }),
};

export const energyStore: Store<typeof gpaiEnergyDisclosures> = {
  model: 'gpaiEnergyDisclosure',
  computed: {
    systemicRiskPresumed: (r: EnergyRow) => systemicRiskPresumed(r.computeFlops),
    thresholdFlops: () => GPAI_SYSTEMIC_RISK_FLOPS,
    sources: () => ENERGY_SOURCES,
  },
  create: async ({ db, who, body }) => {
    const summary = await draftSummary(db, body.summaryId);
    if (body.energyBasis === 'unknown' && body.energyMwh !== undefined) {
      throw invalid('energyMwh', 'Energy is unknown: give no value (the method says how compute stands in for it).');
    }
    if (body.energyBasis !== 'unknown' && body.energyMwh === undefined) {
      throw invalid('energyMwh', `Energy ${body.energyBasis}: give the value in MWh.`);
    }
    return {
      summaryId: summary.id,
      energyMwh: body.energyMwh ?? null,
      energyBasis: body.energyBasis,
      method: body.method,
      computeFlops: body.computeFlops,
      trainingTimeHours: body.trainingTimeHours ?? null,
      createdBy: who.actor,
    };
  },
  auditData: (e) => ({ summaryId: e.summaryId, computeFlops: e.computeFlops, systemicRiskPresumed: e.systemicRiskPresumed }),
};

// ---------------------------------------------------------------- document and completeness

type Document = z.infer<typeof GpaiDocument>;

/** The summary following the template's sections, each filled (or not) from the records. */
export async function buildDocument(db: Tx, row: SummaryRow, now = new Date()): Promise<Document> {
  const [sources, policy, energy] = await Promise.all([
    db.gpaiDataSource.findMany({ where: { summaryId: row.id }, orderBy: { id: 'asc' } }),
    db.gpaiCopyrightPolicy.findFirst({ where: { summaryId: row.id }, orderBy: { version: 'desc' } }),
    db.gpaiEnergyDisclosure.findFirst({ where: { summaryId: row.id }, orderBy: { id: 'desc' } }),
  ]);
  const s = renderSummary(row);
  const fill = (filledBy: string): { filled: boolean; content: unknown } => {
    switch (filledBy) {
      case 'summary.provider':
        return { filled: Boolean(s.provider?.name && s.provider?.contact), content: s.provider };
      case 'summary.model':
        return {
          filled: Boolean(s.modelName && s.modelVersion),
          content: { modelName: s.modelName, modelVersion: s.modelVersion, placedOnMarketAt: s.placedOnMarketAt },
        };
      case 'summary.modalities': {
        const sized = new Set(s.trainingDataSize.map((t) => t.modality));
        return {
          filled: s.modalities.length > 0 && s.modalities.every((m) => sized.has(m)),
          content: { modalities: s.modalities, trainingDataSize: s.trainingDataSize },
        };
      }
      case 'summary.illegal-content':
        return { filled: Boolean(s.illegalContentMeasures), content: s.illegalContentMeasures };
      case 'copyright-policy':
        return { filled: Boolean(policy && policy.optOutMethods.length > 0), content: policy ? renderPolicy(policy) : null };
      default: {
        const types = filledBy.startsWith('data-sources:') ? filledBy.slice('data-sources:'.length).split(',') : undefined;
        const matching = sources.filter((x) => !types || types.includes(x.type)).map(renderSource);
        return { filled: matching.length > 0, content: matching };
      }
    }
  };
  const sections = gpaiTemplate().sections.map((sec) => {
    const f = fill(sec.filledBy);
    return {
      id: sec.id,
      number: sec.number,
      title: sec.title,
      required: sec.required,
      filled: f.filled,
      content: f.content,
      source: sec.source,
    };
  });
  const missing = sections.filter((x) => x.required && !x.filled).map((x) => x.id);
  return {
    object: 'svc.gpai_summary.document',
    summaryId: row.id,
    version: row.version,
    templateVersion: templateVersion(),
    complete: missing.length === 0,
    missing,
    sections,
    systemicRiskPresumed: energy ? systemicRiskPresumed(energy.computeFlops) : null,
    generatedAt: now.toISOString(),
  };
}

const renderVersion = rendererOf<VersionRow>()(GpaiSummaryVersion, { document: (r) => r.document as Document });

async function summaryRow(db: Tx, id: string): Promise<SummaryRow> {
  const row = await db.gpaiSummary.findFirst({ where: { id } });
  if (!row) throw notFound('Summary', id);
  return row;
}

export async function document(prisma: Prisma, tenantId: string, id: string): Promise<Document> {
  const db = scopeToTenant(prisma, tenantId);
  return buildDocument(db, await summaryRow(db, id));
}

export async function versions(
  prisma: Prisma,
  tenantId: string,
  id: string,
  query: PageQuery,
): Promise<Page<z.infer<typeof GpaiSummaryVersion>>> {
  const db = scopeToTenant(prisma, tenantId);
  await summaryRow(db, id);
  const after = decodeCursor(query.cursor, 'number');
  const rows = await db.gpaiSummaryVersion.findMany({
    where: { summaryId: id, ...(after !== undefined ? { version: { lt: after } } : {}) },
    orderBy: { version: 'desc' },
    take: query.limit + 1,
  });
  return toPage(rows, query.limit, (r) => r.version, renderVersion);
}
