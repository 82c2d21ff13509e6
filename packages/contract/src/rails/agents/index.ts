/**
 * The agents rail (`/v1/agents`, growth): the catalogue of 33 agents, each invoked through its own
 * typed route, and the decisions they record. Every invocation is a decision: the input (request
 * and the facts the agent read), the dictionary version, the rule set and the output, with one
 * SHA-256 over the four, appended to the audit trail. Reading a decision re-executes it.
 */

export * from './routes.ts';
export * from './schemas.ts';
// The agent specifications the server, the MCP server and the tests read (specs/: one file per agent).
export * from './specs/classifier.ts';
export * from './specs/compliance-authoring.ts';
export * from './specs/data-risk-search.ts';
export * from './specs/reporting.ts';
export * from './specs/spec.ts';
