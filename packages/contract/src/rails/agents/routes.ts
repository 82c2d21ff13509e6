import { z } from 'zod';
import { get, policyOf, post } from '../../platform/declare.ts';
import { railRouter } from '../../platform/resource.ts';
import { eventType } from '../../platform/webhook-events.ts';
import { listOf, PaginationQuery } from '../../shared/common.ts';
import { CATALOGUES, DECISION_SOURCES, DecisionId, EXAMPLE_REQUEST, Group, Slug } from './fields.ts';
import {
  AGENT_SPECS,
  AgentDecision,
  AgentDecisionReplayed,
  AgentDetail,
  AgentInvocation,
  type AgentSpecs,
  AgentSummary,
  type DecisionOf,
  decisionOf,
} from './schemas.ts';
import type { AgentSpec } from './specs/spec.ts';

/** The agents rail's resources and hand-declared routes, its router and the event types it emits. */

const SlugParams = z.object({ slug: Slug });
const BySlug = { pathParams: SlugParams };

const { read, write } = policyOf('agents');
const invokeMeta = write('agent.decision_recorded');

function invokeRoute<S extends AgentSpec>(spec: S) {
  return post(`/${spec.slug}/invoke`, { body: spec.input as S['input'] }, decisionOf(spec) as DecisionOf<S['output']>, invokeMeta).doc(
    `Invoke ${spec.slug}`,
    `${spec.purpose} ${spec.group === 'advisory' ? 'Advisory: it scores and ranks.' : 'Deterministic: it applies rules to facts.'} Records a decision (\`dec_\`) with the input, the facts read, the tenant’s pinned dictionary version, the rule set and the output, hashed and appended to the audit trail (\`agent.decision_recorded\`). A missing or invalid input field is a 422 naming it. Needs \`agents:write\`.`,
  );
}
type InvokeRoutes = { [K in keyof AgentSpecs]: ReturnType<typeof invokeRoute<AgentSpecs[K]>> };
function invokeRoutes(): InvokeRoutes {
  return Object.fromEntries(Object.entries(AGENT_SPECS).map(([k, s]) => [k, invokeRoute(s as AgentSpec)])) as unknown as InvokeRoutes;
}

const routedDescription = 'Only decisions of this agent.';
export const agentsRouter = railRouter('agents', {
  list: get(
    '',
    {
      query: PaginationQuery.extend({
        group: Group.optional().meta({ description: 'Only agents of this group.' }),
        catalogue: z.enum(CATALOGUES).optional().meta({ description: 'Only agents named by this catalogue.' }),
      }),
    },
    listOf(AgentSummary),
    read,
  ).doc(
    'List the agents',
    'The 33 agents of the catalogue in catalogue order, with their group, rule set and invocation path. Needs `agents:read`.',
  ),
  decisions: {
    list: get(
      '/decisions',
      {
        query: PaginationQuery.extend({
          agent: Slug.optional().meta({ description: routedDescription }),
          source: z.enum(DECISION_SOURCES).optional().meta({ description: 'Only decisions of this source.' }),
        }),
      },
      listOf(AgentDecision),
      read,
    ).doc('List decisions', 'The tenant’s recorded decisions, newest first, cursor-paginated. Needs `agents:read`.'),
    get: get('/decisions/:id', { pathParams: z.object({ id: DecisionId }) }, AgentDecisionReplayed, read).doc(
      'Get and replay a decision',
      'Returns the decision’s input (request and facts), dictionary version, rule set, output and hash, and re-executes it: the agent’s rules are applied again to the stored input and facts, and `replay` tells whether the same hash comes out or where the output diverges. Another tenant’s decision is 404. Needs `agents:read`.',
    ),
  },
  get: get('/:slug', BySlug, AgentDetail, read).doc(
    'Get an agent',
    'One agent with the JSON Schemas of its input and output; an unknown slug is 404. Needs `agents:read`.',
  ),
  invoke: invokeRoutes(),
  call: post(
    '/:slug',
    {
      ...BySlug,
      body: z.record(z.string(), z.unknown()).meta({
        description: 'The agent’s input (see its `inputSchema`).',
        examples: [EXAMPLE_REQUEST],
      }),
    },
    AgentInvocation,
    invokeMeta,
  ).doc(
    'Invoke an agent (short form)',
    'The same as `POST /v1/agents/{slug}/invoke`: the body is validated against the agent’s input schema (422 naming the field), a decision is recorded and returned. An unknown slug is 404. Needs `agents:write`.',
  ),
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
