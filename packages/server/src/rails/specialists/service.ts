import type {
  SpecialistBillingShare,
  SpecialistClientEngagement,
  specialistCertifications,
  specialistConsultants,
  specialistFees,
  specialistFirms,
} from '@svc/contract';
import type { z } from 'zod';
import type { Prisma, Tx } from '../../db/client.ts';
import { keysetList } from '../../db/pagination.ts';
import { scopeToTenant } from '../../db/tenant-scope.ts';
import { ApiError, invalid } from '../../errors.ts';
import type {
  SpecialistCertification as CertificationRow,
  SpecialistConsultant as ConsultantRow,
  MarketplaceEngagement as EngagementRow,
  SpecialistFirm as FirmRow,
} from '../../generated/prisma/client.ts';
import type { Store } from '../../kit.ts';
import { iso } from '../../platform/render.ts';
import { posture } from '../trust/service.ts';

/**
 * The specialists rail: a firm's records (firms, consultants, certifications, fees) are rows of the
 * firm's tenant, read and written through the tenant scope. The one cross-tenant read is the
 * client engagements: the clients that engaged the firm in the marketplace (rows of the clients,
 * selected by the firm's tenant id) and, for each, that client's posture and open findings, read
 * with that client's tenant id explicitly, one granted client at a time.
 */

// ---------------------------------------------------------------- shared checks

/** Distinct, upper-cased jurisdiction codes in the order given. */
export const normaliseJurisdictions = (codes: readonly string[]) => [...new Set(codes.map((c) => c.toUpperCase()))];

/** The framework dictionary ids, each checked to exist (422 naming the field otherwise); distinct, in order. */
export async function requireFrameworks(shared: Tx, field: string, ids: readonly string[]): Promise<string[]> {
  const wanted = [...new Set(ids)];
  const found = await shared.framework.findMany({ where: { id: { in: wanted } }, select: { id: true } });
  const known = new Set(found.map((f) => f.id));
  const unknown = wanted.filter((id) => !known.has(id));
  if (unknown.length > 0) throw invalid(field, `Unknown framework dictionar${unknown.length === 1 ? 'y' : 'ies'}: ${unknown.join(', ')}.`);
  return wanted;
}

/**
 * The tenant's firm a record belongs to: the one named (422 when it is not the tenant's), or the
 * tenant's first registered firm (422 when it has none).
 */
export async function firmOf(db: Tx, firmId: string | undefined): Promise<FirmRow> {
  if (firmId) {
    const firm = await db.specialistFirm.findFirst({ where: { id: firmId } });
    if (!firm) throw invalid('firmId', `Firm ${firmId} is not a firm of this tenant.`);
    return firm;
  }
  const first = await db.specialistFirm.findFirst({ orderBy: { id: 'asc' } });
  if (!first) throw invalid('firmId', 'The tenant has no firm: register one at POST /v1/specialists/firms first.', 'missing');
  return first;
}

// ---------------------------------------------------------------- firms

export const firmStore: Store<typeof specialistFirms> = {
  model: 'specialistFirm',
  create: async ({ who, body }) => ({
    name: body.name,
    description: body.description ?? null,
    jurisdictions: normaliseJurisdictions(body.jurisdictions),
    createdBy: who.actor,
  }),
  auditData: (f) => ({ name: f.name, jurisdictions: f.jurisdictions }),
};

// ---------------------------------------------------------------- consultants

export const consultantStore: Store<typeof specialistConsultants> = {
  model: 'specialistConsultant',
  computed: { listed: (r: ConsultantRow) => r.status === 'listed' },
  create: async ({ db, shared, who, body }) => {
    const firm = await firmOf(db, body.firmId);
    const expertise = await requireFrameworks(shared, 'expertise', body.expertise);
    const listed = body.listed ?? false;
    return {
      firmId: firm.id,
      name: body.name,
      headline: body.headline,
      expertise,
      jurisdictions: normaliseJurisdictions(body.jurisdictions),
      listed,
      status: listed ? 'listed' : 'unlisted',
      createdBy: who.actor,
    };
  },
  auditData: (c) => ({ firmId: c.firmId, name: c.name, expertise: c.expertise, status: c.status }),
  // `listed` mirrors the status for the readers of the shared table (the search rail).
  transitions: { list_in_marketplace: () => ({ listed: true }), unlist: () => ({ listed: false }) },
};

// ---------------------------------------------------------------- certifications

export const isExpired = (validUntil: Date | null, at = Date.now()) => validUntil !== null && validUntil.getTime() <= at;

export const certificationStore: Store<typeof specialistCertifications> = {
  model: 'specialistCertification',
  computed: { expired: (r: CertificationRow) => isExpired(r.validUntil) },
  create: async ({ db, who, body }) => {
    let firmId: string;
    if (body.consultantId) {
      const consultant = await db.specialistConsultant.findFirst({ where: { id: body.consultantId } });
      if (!consultant) throw invalid('consultantId', `Consultant ${body.consultantId} is not a consultant of this tenant.`);
      if (body.firmId && body.firmId !== consultant.firmId) {
        throw invalid('firmId', `Consultant ${consultant.id} works for firm ${consultant.firmId}, not ${body.firmId}.`);
      }
      firmId = consultant.firmId;
    } else {
      firmId = (await firmOf(db, body.firmId)).id;
    }
    return {
      firmId,
      consultantId: body.consultantId ?? null,
      name: body.name,
      issuer: body.issuer,
      validFrom: body.validFrom ? new Date(body.validFrom) : null,
      validUntil: body.validUntil ? new Date(body.validUntil) : null,
      createdBy: who.actor,
    };
  },
  auditData: (c) => ({ firmId: c.firmId, consultantId: c.consultantId, name: c.name, issuer: c.issuer, validUntil: c.validUntil }),
};

// ---------------------------------------------------------------- client engagements

type ClientEngagement = z.infer<typeof SpecialistClientEngagement>;

/**
 * The active engagements clients made with the tenant's firms, each with the client's live posture
 * and open findings. Engagement rows belong to the clients: they are selected by the firm's tenant
 * id (the grant), never by widening the scope; each client's data is then read under that client's
 * own tenant id, so only granted clients are ever read, and a grant ended or revoked drops out.
 */
export async function clientEngagements(
  prisma: Prisma,
  firmTenantId: string,
  query: { limit: number; cursor?: string; firmId?: string },
): Promise<{ data: ClientEngagement[]; cursor: string | null }> {
  const page = await keysetList(prisma.marketplaceEngagement, query, {
    where: { firmTenantId, status: 'active', ...(query.firmId ? { firmId: query.firmId } : {}) },
    render: (r: EngagementRow) => r,
  });
  const clientIds = [...new Set(page.data.map((e) => e.tenantId))];
  const tenants = clientIds.length
    ? await prisma.tenant.findMany({ where: { id: { in: clientIds } }, select: { id: true, name: true } })
    : [];
  const names = new Map(tenants.map((t) => [t.id, t.name]));
  const perClient = new Map(
    await Promise.all(
      clientIds.map(async (clientId) => {
        const [post, openFindings] = await Promise.all([
          posture(prisma, clientId),
          scopeToTenant(prisma, clientId).selfAuditFinding.count({ where: { status: 'open' } }),
        ]);
        return [clientId, { post, openFindings }] as const;
      }),
    ),
  );
  return {
    data: page.data.map((e) => {
      const c = perClient.get(e.tenantId);
      return {
        object: 'svc.specialists.client_engagement',
        engagementId: e.id,
        tenant: e.tenantId,
        tenantName: names.get(e.tenantId) ?? '',
        firmId: e.firmId,
        listingId: e.listingId,
        since: iso(e.createdAt),
        score: c?.post.score ?? 0,
        controls: c?.post.controls ?? 0,
        evidenced: c?.post.evidenced ?? 0,
        frameworks: c?.post.frameworks.map((f) => f.framework) ?? [],
        openFindings: c?.openFindings ?? 0,
      };
    }),
    cursor: page.cursor,
  };
}

// ---------------------------------------------------------------- fees and the billing share

/** A fee of an engagement a client made with one of the firm tenant's firms; 404 for any other engagement. */
export const feeStore: Store<typeof specialistFees> = {
  model: 'specialistFee',
  create: async ({ shared, who, body }) => {
    // The engagement is the client's row; the firm's tenant is named in it.
    const e = await shared.marketplaceEngagement.findFirst({
      where: { id: body.engagementId, firmTenantId: who.tenantId },
      select: { id: true },
    });
    if (!e) throw new ApiError('not_found', `Engagement ${body.engagementId} was not found among the engagements of this tenant's firms.`);
    return {
      engagementId: body.engagementId,
      period: body.period,
      amountCents: body.amountCents,
      currency: body.currency.toUpperCase(),
      description: body.description ?? null,
      createdBy: who.actor,
    };
  },
  auditData: (f) => ({ engagementId: f.engagementId, period: f.period, amountCents: f.amountCents, currency: f.currency }),
};

/** A fee's share at a rate in basis points, rounded half up to the cent. */
export const shareOf = (amountCents: number, rateBps: number) => Math.round((amountCents * rateBps) / 10_000);

type BillingShare = z.infer<typeof SpecialistBillingShare>;

/**
 * The firm's revenue share per engagement, period and currency: each fee recorded times the
 * engagement's rate (from the listing the client engaged through), and the platform's rest.
 */
export async function billingShare(prisma: Prisma, tenantId: string, period: string | undefined): Promise<BillingShare> {
  const fees = await scopeToTenant(prisma, tenantId).specialistFee.findMany({
    where: period ? { period } : {},
    orderBy: { id: 'asc' },
  });
  const engagementIds = [...new Set(fees.map((f) => f.engagementId))];
  const engagements = engagementIds.length
    ? await prisma.marketplaceEngagement.findMany({ where: { id: { in: engagementIds }, firmTenantId: tenantId } })
    : [];
  const byId = new Map(engagements.map((e) => [e.id, e]));
  const lines = new Map<string, BillingShare['lines'][number]>();
  for (const f of fees) {
    const e = byId.get(f.engagementId);
    if (!e) continue;
    const key = `${f.period}\u0000${f.engagementId}\u0000${f.currency}`;
    const line = lines.get(key) ?? {
      engagementId: e.id,
      tenant: e.tenantId,
      firmId: e.firmId,
      period: f.period,
      currency: f.currency,
      rateBps: e.shareRateBps,
      fees: 0,
      feesCents: 0,
      firmShareCents: 0,
      platformShareCents: 0,
    };
    const firm = shareOf(f.amountCents, e.shareRateBps);
    line.fees += 1;
    line.feesCents += f.amountCents;
    line.firmShareCents += firm;
    line.platformShareCents += f.amountCents - firm;
    lines.set(key, line);
  }
  const sorted = [...lines.values()].sort(
    (a, b) => a.period.localeCompare(b.period) || a.engagementId.localeCompare(b.engagementId) || a.currency.localeCompare(b.currency),
  );
  const totals = new Map<string, BillingShare['totals'][number]>();
  for (const l of sorted) {
    const t = totals.get(l.currency) ?? { currency: l.currency, feesCents: 0, firmShareCents: 0, platformShareCents: 0 };
    t.feesCents += l.feesCents;
    t.firmShareCents += l.firmShareCents;
    t.platformShareCents += l.platformShareCents;
    totals.set(l.currency, t);
  }
  return {
    object: 'svc.specialists.billing_share',
    period: period ?? null,
    lines: sorted,
    totals: [...totals.values()].sort((a, b) => a.currency.localeCompare(b.currency)),
    computedAt: iso(new Date()),
  };
}
