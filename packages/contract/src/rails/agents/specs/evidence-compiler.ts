import { z } from 'zod';
import { BOTH, d, EXAMPLE_SYSTEM, exampleId, Id, Timestamp } from './shared.ts';
import { agentSpec } from './spec.ts';

const Freshness = z
  .enum(['fresh', 'stale'])
  .meta(d('`stale` when the evidence expired or is older than the freshness window of its kind.'));
export const evidenceCompiler = agentSpec({
  slug: 'evidence-compiler',
  title: 'Evidence compiler',
  purpose:
    "Matches the tenant's evidence to a framework's controls, directly or through crosswalk edges, and emits a hashed evidence pack with covered and uncovered controls.",
  group: 'deterministic',
  groupReason:
    'Each control is covered or not by the evidence that cites it or a crosswalked control, and freshness is a fixed window per kind.',
  catalogues: BOTH,
  input: z
    .strictObject({
      framework: z.string().trim().min(1).max(64).meta(d('Dictionary id whose controls the pack answers (`eu-ai-act`, `iso-iec-27001`).')),
      systemId: Id('Only evidence recorded for this AI system; all of the tenant’s evidence when absent.').optional(),
    })
    .meta({
      id: 'AgentEvidenceCompilerInput',
      examples: [{ framework: 'eu-ai-act' }, { framework: 'iso-iec-27001', systemId: EXAMPLE_SYSTEM }],
    }),
  output: z
    .object({
      framework: z.string().meta(d('Dictionary id of the pack.')),
      systemId: z.string().nullable().meta(d('The system the pack is for; null for the whole tenant.')),
      asOf: Timestamp.meta(d('Moment freshness was judged at.')),
      controls: z
        .array(
          z.object({
            controlId: z.string().meta(d('Control of the framework.')),
            title: z.string().meta(d('Title of the control.')),
            status: z
              .enum(['covered', 'stale', 'uncovered'])
              .meta(d('`covered` with at least one fresh item, `stale` with only stale items, `uncovered` with none.')),
            evidence: z
              .array(
                z.object({
                  id: z.string().meta(d('Evidence id.')),
                  title: z.string().meta(d('Evidence title.')),
                  sha256: z.string().nullable().meta(d('SHA-256 of the artefact; null when none was recorded.')),
                  collectedAt: Timestamp.meta(d('When the evidence was collected.')),
                  freshness: Freshness,
                  match: z
                    .enum(['direct', 'crosswalk'])
                    .meta(
                      d(
                        '`direct` when the evidence cites the control, `crosswalk` when it cites a control of another framework mapped to it.',
                      ),
                    ),
                  via: z
                    .string()
                    .nullable()
                    .meta(d('The cited control of the other framework for a crosswalk match; null for a direct one.')),
                }),
              )
              .meta(d('Evidence matched to the control, direct matches first.')),
          }),
        )
        .meta(d('Every control of the framework, in dictionary order.')),
      counts: z
        .object({
          controls: z.int().meta(d('Controls of the framework.')),
          covered: z.int().meta(d('Controls with fresh evidence.')),
          stale: z.int().meta(d('Controls with only stale evidence.')),
          uncovered: z.int().meta(d('Controls without evidence.')),
          evidence: z.int().meta(d('Distinct evidence items in the pack.')),
        })
        .meta(d('Counts of the pack.')),
      coveragePercent: z.number().meta(d('Covered controls as a percentage of all controls, to one decimal.')),
      packSha256: z
        .string()
        .meta(d('SHA-256 of the canonical JSON of the controls and their evidence: two packs with the same content have the same hash.')),
    })
    .meta({
      id: 'AgentEvidenceCompilerOutput',
      examples: [
        {
          framework: 'eu-ai-act',
          systemId: null,
          asOf: '2026-11-20T08:00:00.000Z',
          controls: [
            {
              controlId: 'AIA-RMS-01',
              title: 'Lifecycle risk management system',
              status: 'covered',
              evidence: [
                {
                  id: exampleId('evd'),
                  title: 'Risk management procedure',
                  sha256: null,
                  collectedAt: '2026-10-01T00:00:00.000Z',
                  freshness: 'fresh',
                  match: 'direct',
                  via: null,
                },
              ],
            },
          ],
          counts: { controls: 71, covered: 1, stale: 0, uncovered: 70, evidence: 1 },
          coveragePercent: 1.4,
          packSha256: '9f2c1a6e0b8d4f3a7c5e2b1d0a9f8e7d6c5b4a3f2e1d0c9b8a7f6e5d4c3b2a1f',
        },
      ],
    }),
});
