import { z } from 'zod';
import { BOTH, CalendarDate } from './shared.ts';
import { agentSpec } from './spec.ts';

const analyticsExample = {
  window: { from: '2026-10-22', to: '2026-11-20', days: 30 },
  events: 42,
  kinds: [{ kind: 'evidence.uploaded', total: 12, perDay: 0.4, slope: 0.05, trend: 'rising' }],
  anomalies: [{ kind: 'evidence.uploaded', date: '2026-11-19', count: 9, mean: 0.3, stddev: 1.6, z: 5.4 }],
  overBudget: { events: 1, share: 0.0238, byKind: [{ kind: 'incident.opened', count: 1 }] },
  drifts: { open: 0, top: [] },
  insights: ['evidence.uploaded: 9 events on 2026-11-19, z = 5.4 against the window.'],
};
export const analyticsInsight = agentSpec({
  slug: 'analytics-insight',
  title: 'Analytics insight',
  purpose:
    'Surfaces drift, anomalies and KPI trends from the event index over a window: events per kind per day, z-score anomalies, trend slopes, latency over budget and the open drifts of reconciliation.',
  group: 'advisory',
  groupReason: 'It scores and ranks signals (anomalies, trends, drifts) for a person to investigate.',
  catalogues: BOTH,
  input: z
    .strictObject({
      days: z.int().min(1).max(90).optional().meta({ description: 'Length of the window ending today, 1 to 90 days; 30 when absent.' }),
    })
    .meta({ id: 'AgentAnalyticsInsightInput', examples: [{ days: 30 }, { days: 7 }] }),
  output: z
    .object({
      window: z
        .object({
          from: CalendarDate.meta({ description: 'First day of the window (YYYY-MM-DD, UTC).' }),
          to: CalendarDate.meta({ description: 'Last day of the window: the day of the invocation (YYYY-MM-DD, UTC).' }),
          days: z.int().meta({ description: 'Number of days in the window, 1 to 90.' }),
        })
        .meta({ description: 'The window read, both days included.' }),
      events: z.int().meta({ description: 'Events of the tenant in the window.' }),
      kinds: z
        .array(
          z.object({
            kind: z.string().meta({ description: 'Event kind (`evidence.uploaded`).' }),
            total: z.int().meta({ description: 'Events of the kind in the window.' }),
            perDay: z.number().meta({ description: 'Mean number of events of the kind per day over the window, to 4 decimals.' }),
            slope: z.number().meta({ description: 'Least-squares slope of the daily counts, events per day per day.' }),
            trend: z.enum(['rising', 'falling', 'flat']).meta({
              description:
                '`rising` or `falling` when slope × days / daily mean is beyond the rules’ threshold of 0.5 in that direction, `flat` otherwise.',
            }),
          }),
        )
        .meta({ description: 'Per event kind: total, daily mean and trend, busiest first.' }),
      anomalies: z
        .array(
          z.object({
            kind: z.string().meta({ description: 'Event kind.' }),
            date: CalendarDate.meta({ description: 'The anomalous day (YYYY-MM-DD, UTC).' }),
            count: z.int().meta({ description: 'Events of the kind on that day (at least 3).' }),
            mean: z.number().meta({ description: 'Mean daily count of the kind over the window, to 4 decimals.' }),
            stddev: z
              .number()
              .meta({ description: 'Population standard deviation of the daily counts of the kind over the window, to 4 decimals.' }),
            z: z
              .number()
              .meta({ description: 'z-score of the day, (count − mean) / stddev, to 4 decimals; at least the rules’ threshold of 3.' }),
          }),
        )
        .meta({ description: 'Days whose count of a kind is above the z-score threshold of the rules, strongest first.' }),
      overBudget: z
        .object({
          events: z.int().meta({ description: 'Events in the window whose latency exceeded their budget.' }),
          share: z.number().meta({ description: 'Share of the window’s events that were over budget, 0 to 1, to 4 decimals.' }),
          byKind: z
            .array(
              z.object({
                kind: z.string().meta({ description: 'Event kind.' }),
                count: z.int().meta({ description: 'Events of the kind over budget in the window.' }),
              }),
            )
            .meta({ description: 'Over-budget events per kind, most first.' }),
        })
        .meta({ description: 'Events whose latency exceeded their budget.' }),
      drifts: z
        .object({
          open: z.int().meta({ description: 'Number of open drift findings of the tenant (whatever the window).' }),
          top: z
            .array(
              z.object({
                id: z.string().meta({ description: 'Id of the drift finding.' }),
                check: z.string().meta({ description: 'The reconciliation check that found the drift.' }),
                type: z.string().meta({ description: 'Type of drift the check reported.' }),
                subject: z.string().meta({ description: 'What drifted: the record or setting the finding concerns.' }),
                ageDays: z.int().meta({ description: 'Whole days since the drift was first seen, 0 or more.' }),
              }),
            )
            .meta({ description: 'The oldest open drift findings, at most 10, oldest first.' }),
        })
        .meta({ description: 'Open drift findings of reconciliation, oldest first.' }),
      insights: z.array(z.string()).meta({ description: 'The signals above in sentences, most important first.' }),
    })
    .meta({ id: 'AgentAnalyticsInsightOutput', examples: [analyticsExample] }),
});
