import { z } from 'zod';
import { claimIdPrefix } from '../../platform/resource.ts';
import { Timestamp } from '../../shared/common.ts';
import { EXAMPLE_AT, EXAMPLE_KEY, objectField } from '../../shared/records.ts';
import { CATALOGUES, DECISION_SOURCES, DecisionId, EXAMPLE_DECISION, EXAMPLE_REQUEST, Group, Slug } from './fields.ts';
import { classifierAgents } from './specs/classifier.ts';
import { groupAAgents } from './specs/compliance-authoring.ts';
import { groupBAgents } from './specs/data-risk-search.ts';
import { reportingAgents } from './specs/reporting.ts';
import type { AgentSpec } from './specs/spec.ts';

/** The agents rail's records, request bodies and their examples (index.ts describes the rail). */

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

/** The record the `object` field descriptions of this rail name as their example. */
const OBJECT_EXAMPLE = 'svc.agents.decision';
const RecordedAt = Timestamp.meta({ description: 'When the decision was recorded.' });

/** The rule set of the examples: the classifier's. */
const EXAMPLE_RULE_SET = {
  id: 'classifier-rules',
  version: '1.0.0',
  hash: 'sha256:5d0c4b9e0f0f6f0a3c7b1e2d4a6c8e0f1a3b5c7d9e1f3a5b7c9d1e3f5a7b9c1d',
};

export const AgentRuleSet = z
  .object({
    id: z.string().meta({ description: 'Id of the rule set (`classifier-rules`).' }),
    version: z.string().meta({ description: 'Semantic version of the rule set.' }),
    hash: z.string().meta({ description: '`sha256:<hex>` of the canonical JSON of the rules.' }),
  })
  .meta({ id: 'AgentRuleSet', description: 'The rules a decision applied, named by id, version and content hash.' });

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
