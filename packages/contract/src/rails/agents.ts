import { z } from 'zod';
import { classifierAgents } from '../agents/classifier.ts';
import { groupAAgents } from '../agents/compliance-authoring.ts';
import { groupBAgents } from '../agents/data-risk-search.ts';
import { reportingAgents } from '../agents/reporting.ts';
import type { AgentSpec } from '../agents/spec.ts';
import { listOf, PaginationQuery, prefixedId, Timestamp } from '../common.ts';
import { meta } from '../meta.ts';
import { claimIdPrefix, railRouter } from '../resource.ts';
import { EXAMPLE_AT, EXAMPLE_KEY, exampleId, objectField } from '../shared/records.ts';
import { eventType } from '../webhook-events.ts';

/**
 * The agents rail (`/v1/agents`, growth): the catalogue of 33 agents, each invoked through its own
 * typed route, and the decisions they record. Every invocation is a decision: the input (request
 * and the facts the agent read), the dictionary version, the rule set and the output, with one
 * SHA-256 over the four, appended to the audit trail. Reading a decision re-executes it.
 */

/** Every agent of the catalogue, keyed by its camelCase name. */
export const AGENT_SPECS = { ...classifierAgents, ...groupAAgents, ...groupBAgents, ...reportingAgents };
export type AgentSpecs = typeof AGENT_SPECS;

const specList = (): AgentSpec[] => Object.values(AGENT_SPECS) as AgentSpec[];
/** Slugs of the catalogue, in catalogue order. */
export function agentSlugs(): string[] {
  return specList().map((s) => s.slug);
}
export function agentSpecOf(slug: string): AgentSpec | undefined {
  return specList().find((s) => s.slug === slug);
}

claimIdPrefix('dec', 'svc.agents.decision');
const EXAMPLE_DECISION = exampleId('dec');
const DecisionId = prefixedId('dec', EXAMPLE_DECISION);
const Slug = z
  .string()
  .min(1)
  .max(64)
  .regex(/^[a-z0-9]+(-[a-z0-9]+)*$/)
  .meta({ description: 'Slug of an agent (`classifier`).', examples: ['classifier'] });

/** The record the `object` field descriptions of this rail name as their example. */
const OBJECT_EXAMPLE = 'svc.agents.decision';
const CATALOGUES = ['core14', 'all31'] as const;
const DECISION_SOURCES = ['api', 'event'] as const;
const RecordedAt = Timestamp.meta({ description: 'When the decision was recorded.' });
const SlugParams = z.object({ slug: Slug });

/** The rule set of the examples: the classifier's. */
const EXAMPLE_RULE_SET = {
  id: 'classifier-rules',
  version: '1.0.0',
  hash: 'sha256:5d0c4b9e0f0f6f0a3c7b1e2d4a6c8e0f1a3b5c7d9e1f3a5b7c9d1e3f5a7b9c1d',
};
/** The classifier input of the examples: an AI system that ranks job applicants. */
const EXAMPLE_REQUEST = { purpose: 'Ranks job applicants from their CVs.', affectedPersons: ['job applicants'] };

export const AgentRuleSet = z
  .object({
    id: z.string().meta({ description: 'Id of the rule set (`classifier-rules`).' }),
    version: z.string().meta({ description: 'Semantic version of the rule set.' }),
    hash: z.string().meta({ description: '`sha256:<hex>` of the canonical JSON of the rules.' }),
  })
  .meta({ id: 'AgentRuleSet', description: 'The rules a decision applied, named by id, version and content hash.' });

const Group = z.enum(['deterministic', 'advisory']).meta({
  description:
    '`deterministic`: applies rules to facts, the answer is the rules’ consequence; `advisory`: scores and ranks, the answer is a judgement a person weighs. Both are replayable.',
});

export const AgentSummary = z
  .object({
    object: objectField('svc.agents.agent', OBJECT_EXAMPLE),
    slug: Slug,
    title: z.string().meta({ description: 'Name of the agent.' }),
    purpose: z.string().meta({ description: 'What the agent does.' }),
    group: Group,
    groupReason: z.string().meta({ description: 'Why the agent is in its group.' }),
    catalogues: z
      .array(z.enum(CATALOGUES))
      .meta({ description: 'Lists of the specification that name the agent: the 14-agent and the 31-agent catalogues.' }),
    invokePath: z.string().meta({ description: 'Path of the agent’s typed invocation route.' }),
    ruleSet: AgentRuleSet,
    routedEvents: z
      .array(z.string())
      .meta({ description: 'Event-kind patterns the event engine routes to the agent; each routed event becomes a decision.' }),
  })
  .meta({
    id: 'AgentSummary',
    examples: [
      {
        object: 'svc.agents.agent',
        slug: 'classifier',
        title: 'EU AI Act classifier',
        purpose: 'Classifies an AI system by EU AI Act Annex III and GPAI scoping.',
        group: 'deterministic',
        groupReason: 'The risk class follows from the Act’s rules applied to the description.',
        catalogues: ['core14', 'all31'],
        invokePath: '/v1/agents/classifier/invoke',
        ruleSet: EXAMPLE_RULE_SET,
        routedEvents: [],
      },
    ],
  });

const JsonSchema = z.record(z.string(), z.unknown()).meta({ description: 'JSON Schema (draft 2020-12).' });
export const AgentDetail = AgentSummary.extend({
  inputSchema: JsonSchema,
  outputSchema: JsonSchema,
}).meta({
  id: 'AgentDetail',
  examples: [
    {
      ...((AgentSummary.meta()?.examples ?? []) as object[])[0],
      inputSchema: { type: 'object', properties: { purpose: { type: 'string' } } },
      outputSchema: { type: 'object', properties: { riskLevel: { type: 'string' } } },
    },
  ],
});

const decisionFields = {
  object: objectField('svc.agents.decision', OBJECT_EXAMPLE),
  agent: Slug,
  decisionId: DecisionId,
  dictionaryVersion: z
    .string()
    .meta({ description: '`<dictionary>@<version>` the decision used (the tenant’s pinned version).', examples: ['eu-ai-act@1.0.0'] }),
  ruleSet: AgentRuleSet,
  hash: z.string().meta({ description: '`sha256:<hex>` over the canonical JSON of input, dictionary version, rule set and output.' }),
  createdAt: RecordedAt,
};
const decisionExample = {
  object: 'svc.agents.decision',
  agent: 'classifier',
  decisionId: EXAMPLE_DECISION,
  dictionaryVersion: 'eu-ai-act@1.0.0',
  ruleSet: EXAMPLE_RULE_SET,
  hash: 'sha256:0a1b2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f60718293a4b5c6d7e8f9',
  createdAt: EXAMPLE_AT,
};

/** The type of an invocation's answer: the output's shape with the decision's fields. */
export type DecisionOf<O extends z.ZodObject> = z.ZodObject<z.core.util.Extend<O['shape'], typeof decisionFields>, O['_zod']['config']>;

/** The answer of an invocation: the agent's output with the decision's envelope fields beside it. */
export function decisionOf<O extends z.ZodObject>(spec: AgentSpec<z.ZodObject, O>): DecisionOf<O> {
  const outputExample = (spec.output.meta()?.examples as object[] | undefined)?.[0] ?? {};
  return spec.output.extend(decisionFields).meta({
    id: `${spec.output.meta()?.id ?? 'AgentOutput'}Decision`,
    description: `The output of \`${spec.slug}\` and the decision that records it.`,
    examples: [{ ...outputExample, ...decisionExample, agent: spec.slug }],
  }) as DecisionOf<O>;
}

/** The answer of the short form (any agent): the output's fields with the decision's envelope. */
export const AgentInvocation = z.looseObject(decisionFields).meta({
  id: 'AgentInvocation',
  description: 'The agent’s output fields (see the agent’s `outputSchema`) beside the decision’s fields.',
  examples: [decisionExample],
});

export const AgentReplay = z
  .object({
    reproduced: z.boolean().meta({ description: 'True when re-executing the stored input with the rule set gives the same hash.' }),
    intact: z.boolean().meta({
      description:
        'True when the stored input, dictionary version, rule set and output still hash to the recorded hash (the record was not altered).',
    }),
    hash: z.string().meta({ description: 'The hash of the re-executed decision.' }),
    ruleSetChanged: z
      .boolean()
      .meta({ description: 'True when the rule set of this version of the service differs from the one the decision recorded.' }),
    divergences: z
      .array(
        z.object({
          path: z.string().meta({ description: 'JSON path in the output (`riskLevel`, `sections[2].heading`).' }),
          stored: z.unknown().meta({ description: 'The recorded value.' }),
          replayed: z.unknown().meta({ description: 'The value the replay produced.' }),
        }),
      )
      .meta({ description: 'Where the replayed output differs from the recorded one (the first 50).' }),
    error: z.string().nullable().meta({ description: 'Why the decision could not be re-executed, if it could not.' }),
  })
  .meta({ id: 'AgentReplay', description: 'The decision re-executed from its stored input, facts and rules.' });

export const AgentDecision = z
  .object({
    object: objectField('svc.agents.decision', OBJECT_EXAMPLE),
    id: DecisionId,
    agent: Slug,
    input: z
      .object({
        request: z.unknown().meta({ description: 'The body the agent was invoked with (or the input derived from the routed event).' }),
        facts: z.unknown().meta({ description: 'What the agent read from the tenant’s records and the dictionaries.' }),
      })
      .meta({ description: 'Everything the decision was computed from.' }),
    dictionaryVersion: z.string().meta({ description: '`<dictionary>@<version>` the decision used.' }),
    bundleHash: z.string().meta({ description: 'The tenant’s pinned taxonomy bundle at the time of the decision.' }),
    ruleSet: AgentRuleSet,
    output: z.record(z.string(), z.unknown()).meta({ description: 'What the agent answered.' }),
    hash: z
      .string()
      .meta({ description: '`sha256:<hex>` over the canonical JSON of `input`, `dictionaryVersion`, `ruleSet` and `output`.' }),
    source: z
      .enum(DECISION_SOURCES)
      .meta({ description: '`api`: invoked through the API; `event`: an event the event engine routed to the agent.' }),
    eventId: z.string().nullable().meta({ description: 'Event-index row of a routed event.' }),
    createdBy: z.string().meta({ description: 'API key (or `system:event-engine`) that caused the decision.' }),
    createdAt: RecordedAt,
  })
  .meta({
    id: 'AgentDecision',
    examples: [
      {
        object: 'svc.agents.decision',
        id: EXAMPLE_DECISION,
        agent: 'classifier',
        input: { request: EXAMPLE_REQUEST, facts: {} },
        dictionaryVersion: 'eu-ai-act@1.0.0',
        bundleHash: 'sha256:9f1e2d3c4b5a69788796a5b4c3d2e1f09f1e2d3c4b5a69788796a5b4c3d2e1f0',
        ruleSet: decisionExample.ruleSet,
        output: { riskLevel: 'high', rationale: 'Annex III 4(a): recruitment and selection.', applicableClauses: ['art-6'] },
        hash: decisionExample.hash,
        source: 'api',
        eventId: null,
        createdBy: EXAMPLE_KEY,
        createdAt: EXAMPLE_AT,
      },
    ],
  });

export const AgentDecisionReplayed = AgentDecision.extend({ replay: AgentReplay }).meta({
  id: 'AgentDecisionReplayed',
  examples: [
    {
      ...((AgentDecision.meta()?.examples ?? []) as object[])[0],
      replay: { reproduced: true, intact: true, hash: decisionExample.hash, ruleSetChanged: false, divergences: [], error: null },
    },
  ],
});

const read = meta({ auth: 'tenant', rail: 'agents', permission: 'agents:read', mutating: false });
const invokeMeta = meta({ auth: 'tenant', rail: 'agents', permission: 'agents:write', mutating: true, audit: 'agent.decision_recorded' });

function invokeRoute<S extends AgentSpec>(spec: S) {
  return {
    method: 'POST' as const,
    path: `/${spec.slug}/invoke`,
    body: spec.input as S['input'],
    responses: { 200: decisionOf(spec) as DecisionOf<S['output']> },
    summary: `Invoke ${spec.slug}`,
    description: `${spec.purpose} ${spec.group === 'advisory' ? 'Advisory: it scores and ranks.' : 'Deterministic: it applies rules to facts.'} Records a decision (\`dec_\`) with the input, the facts read, the tenant’s pinned dictionary version, the rule set and the output, hashed and appended to the audit trail (\`agent.decision_recorded\`). A missing or invalid input field is a 422 naming it. Needs \`agents:write\`.`,
    metadata: invokeMeta,
  };
}
type InvokeRoutes = { [K in keyof AgentSpecs]: ReturnType<typeof invokeRoute<AgentSpecs[K]>> };
function invokeRoutes(): InvokeRoutes {
  return Object.fromEntries(Object.entries(AGENT_SPECS).map(([k, s]) => [k, invokeRoute(s as AgentSpec)])) as unknown as InvokeRoutes;
}

const routedDescription = 'Only decisions of this agent.';
export const agentsRouter = railRouter('agents', {
  list: {
    method: 'GET',
    path: '',
    query: PaginationQuery.extend({
      group: Group.optional().meta({ description: 'Only agents of this group.' }),
      catalogue: z.enum(CATALOGUES).optional().meta({ description: 'Only agents named by this catalogue.' }),
    }),
    responses: { 200: listOf(AgentSummary) },
    summary: 'List the agents',
    description: 'The 33 agents of the catalogue in catalogue order, with their group, rule set and invocation path. Needs `agents:read`.',
    metadata: read,
  },
  decisions: {
    list: {
      method: 'GET',
      path: '/decisions',
      query: PaginationQuery.extend({
        agent: Slug.optional().meta({ description: routedDescription }),
        source: z.enum(DECISION_SOURCES).optional().meta({ description: 'Only decisions of this source.' }),
      }),
      responses: { 200: listOf(AgentDecision) },
      summary: 'List decisions',
      description: 'The tenant’s recorded decisions, newest first, cursor-paginated. Needs `agents:read`.',
      metadata: read,
    },
    get: {
      method: 'GET',
      path: '/decisions/:id',
      pathParams: z.object({ id: DecisionId }),
      responses: { 200: AgentDecisionReplayed },
      summary: 'Get and replay a decision',
      description:
        'Returns the decision’s input (request and facts), dictionary version, rule set, output and hash, and re-executes it: the agent’s rules are applied again to the stored input and facts, and `replay` tells whether the same hash comes out or where the output diverges. Another tenant’s decision is 404. Needs `agents:read`.',
      metadata: read,
    },
  },
  get: {
    method: 'GET',
    path: '/:slug',
    pathParams: SlugParams,
    responses: { 200: AgentDetail },
    summary: 'Get an agent',
    description: 'One agent with the JSON Schemas of its input and output; an unknown slug is 404. Needs `agents:read`.',
    metadata: read,
  },
  invoke: invokeRoutes(),
  call: {
    method: 'POST',
    path: '/:slug',
    pathParams: SlugParams,
    body: z.record(z.string(), z.unknown()).meta({
      description: 'The agent’s input (see its `inputSchema`).',
      examples: [EXAMPLE_REQUEST],
    }),
    responses: { 200: AgentInvocation },
    summary: 'Invoke an agent (short form)',
    description:
      'The same as `POST /v1/agents/{slug}/invoke`: the body is validated against the agent’s input schema (422 naming the field), a decision is recorded and returned. An unknown slug is 404. Needs `agents:write`.',
    metadata: invokeMeta,
  },
});

/** Event types the agents rail emits. */
export const agentsEvents: ReturnType<typeof eventType>[] = [
  eventType(
    'agent.decision_recorded',
    'An agent recorded a decision (invoked through the API or by a routed event).',
    z.looseObject({
      agent: Slug,
      decisionId: DecisionId,
      dictionaryVersion: z.string(),
      hash: z.string(),
      source: z.enum(DECISION_SOURCES),
    }),
  ),
  eventType(
    'agent.failed',
    'An event routed to an agent could not be decided (its input was refused or a record is missing).',
    z.looseObject({ agent: Slug, eventId: z.string(), error: z.string() }),
  ),
];
