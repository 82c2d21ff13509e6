import { AGENT_SPECS, type AgentSpec, agentSpecOf, contract } from '@svc/contract';
import { initServer } from '@ts-rest/express';
import { z } from 'zod';
import { agentDef, ruleSetOf } from '../../agents/registry.ts';
import { getDecision, invokeAgent, renderDecision, renderInvocation } from '../../agents/runtime.ts';
import type { Prisma } from '../../db/client.ts';
import { decodeCursor, keysetList, toPage } from '../../db/pagination.ts';
import { scopeToTenant } from '../../db/tenant-scope.ts';
import { ApiError } from '../../errors.ts';
import { actor, type RailDeps, tenantOf } from '../deps.ts';

/** Event-kind patterns routed to each agent (the event engine's `event_routes`). */
async function routesByAgent(prisma: Prisma): Promise<Map<string, string[]>> {
  const rows = await prisma.eventRoute.findMany({ orderBy: { pattern: 'asc' } });
  const out = new Map<string, string[]>();
  for (const r of rows) out.set(r.agent, [...(out.get(r.agent) ?? []), r.pattern]);
  return out;
}

function summaryOf(spec: AgentSpec, routed: Map<string, string[]>) {
  const def = agentDef(spec.slug);
  if (!def) throw new ApiError('not_found', `Agent ${spec.slug} is not available in this version of the service.`);
  return {
    object: 'svc.agents.agent' as const,
    slug: spec.slug,
    title: spec.title,
    purpose: spec.purpose,
    group: spec.group,
    groupReason: spec.groupReason,
    catalogues: [...spec.catalogues],
    invokePath: `/v1/agents/${spec.slug}/invoke`,
    ruleSet: ruleSetOf(def),
    routedEvents: routed.get(spec.slug) ?? [],
  };
}

/**
 * JSON Schema of an agent's input or output. A schema with a registered id comes out of zod as a
 * `$ref` into `$defs`; the root is inlined so that clients read the object's properties directly.
 */
function toSchema(schema: z.ZodType, io: 'input' | 'output'): Record<string, unknown> {
  const out = z.toJSONSchema(schema, { target: 'draft-2020-12', io, unrepresentable: 'any' }) as Record<string, unknown>;
  const ref = typeof out.$ref === 'string' ? /^#\/\$defs\/(.+)$/.exec(out.$ref)?.[1] : undefined;
  const defs = (out.$defs ?? {}) as Record<string, Record<string, unknown>>;
  if (!ref || !defs[ref]) return out;
  const { [ref]: root, ...rest } = defs;
  return { $schema: out.$schema, ...root, ...(Object.keys(rest).length ? { $defs: rest } : {}) };
}

const schemaCache = new Map<string, { input: Record<string, unknown>; output: Record<string, unknown> }>();
function jsonSchemas(spec: AgentSpec) {
  let s = schemaCache.get(spec.slug);
  if (!s) {
    s = { input: toSchema(spec.input, 'input'), output: toSchema(spec.output, 'output') };
    schemaCache.set(spec.slug, s);
  }
  return s;
}

export function agentsHandlers({ db }: RailDeps) {
  const { prisma } = db;
  const specs = Object.values(AGENT_SPECS) as AgentSpec[];
  const invoke = async (slug: string, body: unknown, res: Parameters<typeof actor>[0]) => ({
    status: 200 as const,
    body: renderInvocation(await invokeAgent(prisma, actor(res), slug, body, { source: 'api' })),
  });
  const invokeHandlers = Object.fromEntries(
    Object.entries(AGENT_SPECS).map(([key, spec]) => [
      key,
      async ({ body, res }: { body: unknown; res: Parameters<typeof actor>[0] }) => invoke((spec as AgentSpec).slug, body, res),
    ]),
  );
  return initServer().router(contract.agents, {
    list: async ({ query }) => {
      const routed = await routesByAgent(prisma);
      const after = decodeCursor(query.cursor, 'number');
      const rows = specs
        .map((spec, index) => ({ spec, index }))
        .filter(
          ({ spec }) => (!query.group || spec.group === query.group) && (!query.catalogue || spec.catalogues.includes(query.catalogue)),
        )
        .filter(({ index }) => after === undefined || index > after);
      return {
        status: 200,
        body: toPage(
          rows.slice(0, query.limit + 1),
          query.limit,
          (r) => r.index,
          (r) => summaryOf(r.spec, routed),
        ),
      };
    },
    decisions: {
      list: async ({ query, res }) => ({
        status: 200,
        body: await keysetList(scopeToTenant(prisma, tenantOf(res).tenantId).agentDecision, query, {
          filters: ['agent', 'source'],
          render: (r) => renderDecision(r as never),
        }),
      }),
      get: async ({ params, res }) => ({ status: 200, body: await getDecision(prisma, tenantOf(res).tenantId, params.id) }),
    },
    get: async ({ params }) => {
      const spec = agentSpecOf(params.slug);
      if (!spec) throw new ApiError('not_found', `Agent ${params.slug} is not in the catalogue; GET /v1/agents lists the slugs.`);
      const schemas = jsonSchemas(spec);
      return {
        status: 200,
        body: { ...summaryOf(spec, await routesByAgent(prisma)), inputSchema: schemas.input, outputSchema: schemas.output },
      };
    },
    invoke: invokeHandlers as never,
    call: async ({ params, body, res }) => invoke(params.slug, body, res),
  });
}
