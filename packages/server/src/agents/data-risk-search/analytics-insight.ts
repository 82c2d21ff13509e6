import { groupBAgents } from '@svc/contract';
import { scopeToTenant } from '../../db/tenant-scope.ts';
import { defineAgent } from '../types.ts';
import { addDays, cmp, daysFrom, round } from './common.ts';

/**
 * Analytics insight: the tenant's event index over a window, counted per kind per day, with z-score
 * anomalies, least-squares trends, latency over budget and the open drifts of reconciliation.
 */

const rules = {
  defaultDays: 30,
  /** A day is anomalous when its count is at least `zThreshold` standard deviations above the kind's daily mean... */
  zThreshold: 3,
  /** ...and it has at least this many events (two events on a quiet day are not news). */
  minAnomalyCount: 3,
  /** Slope x days over the daily mean beyond which a kind is rising (or falling). */
  trendThreshold: 0.5,
  maxAnomalies: 20,
  maxDrifts: 10,
  sentences: {
    anomaly: '{kind}: {count} events on {date}, z = {z} against a daily mean of {mean}.',
    trend: '{kind} is {trend}: slope {slope} events per day per day over {days} days.',
    overBudget: '{events} events ({percent}%) exceeded their latency budget, most of them {kind}.',
    drift: '{open} drift findings are open; the oldest ({check}: {subject}) for {age} days.',
    quiet: 'No anomaly, trend, latency overrun or open drift in the window.',
  },
};

interface Facts {
  asOf: string;
  from: string;
  to: string;
  days: number;
  counts: { kind: string; date: string; count: number }[];
  overBudget: { kind: string; count: number }[];
  drifts: { id: string; check: string; type: string; subject: string; firstSeenAt: string }[];
}

const fill = (t: string, vars: Record<string, string | number>) => t.replace(/\{(\w+)\}/g, (_, k: string) => String(vars[k] ?? ''));

export const analyticsInsight = defineAgent({
  spec: groupBAgents.analyticsInsight,
  ruleSet: { id: 'analytics-insight-rules', version: '1.0.0', rules },
  dictionaryVersion: (ctx) => ctx.versionOf('iso-iec-42001'),
  async gather(ctx, input): Promise<Facts> {
    const days = input.days ?? rules.defaultDays;
    const asOf = ctx.now.toISOString();
    const to = asOf.slice(0, 10);
    const from = addDays(`${to}T00:00:00.000Z`, -(days - 1));
    const db = scopeToTenant(ctx.prisma, ctx.tenantId);
    const [rows, drifts] = await Promise.all([
      db.eventIndexRow.findMany({
        where: { time: { gte: new Date(`${from}T00:00:00.000Z`), lte: ctx.now } },
        select: { kind: true, time: true, overBudget: true },
      }),
      db.driftFinding.findMany({ where: { status: 'open' }, orderBy: [{ firstSeenAt: 'asc' }, { id: 'asc' }] }),
    ]);
    // Aggregated here so that the facts stay small whatever the volume of events.
    const counts = new Map<string, number>();
    const over = new Map<string, number>();
    for (const r of rows) {
      const key = `${r.kind}|${r.time.toISOString().slice(0, 10)}`;
      counts.set(key, (counts.get(key) ?? 0) + 1);
      if (r.overBudget) over.set(r.kind, (over.get(r.kind) ?? 0) + 1);
    }
    return {
      asOf,
      from,
      to,
      days,
      counts: [...counts.entries()]
        .map(([key, count]) => {
          const [kind = '', date = ''] = key.split('|');
          return { kind, date, count };
        })
        .sort((a, b) => cmp(a.kind, b.kind) || cmp(a.date, b.date)),
      overBudget: [...over.entries()].map(([kind, count]) => ({ kind, count })).sort((a, b) => cmp(a.kind, b.kind)),
      drifts: drifts.map((d) => ({ id: d.id, check: d.check, type: d.type, subject: d.subject, firstSeenAt: d.firstSeenAt.toISOString() })),
    };
  },
  decide(_input, facts, r: typeof rules) {
    const dates = Array.from({ length: facts.days }, (_, i) => addDays(`${facts.from}T00:00:00.000Z`, i));
    const kinds = [...new Set(facts.counts.map((c) => c.kind))].sort(cmp);
    const n = dates.length;
    const xMean = (n - 1) / 2;
    const xVar = dates.reduce((s, _, i) => s + (i - xMean) ** 2, 0);
    const perKind = [];
    const anomalies = [];
    let events = 0;
    for (const kind of kinds) {
      const byDate = new Map(facts.counts.filter((c) => c.kind === kind).map((c) => [c.date, c.count]));
      const series = dates.map((d) => byDate.get(d) ?? 0);
      const total = series.reduce((a, b) => a + b, 0);
      events += total;
      const mean = total / n;
      const stddev = Math.sqrt(series.reduce((s, v) => s + (v - mean) ** 2, 0) / n);
      const slope = xVar > 0 ? series.reduce((s, v, i) => s + (i - xMean) * (v - mean), 0) / xVar : 0;
      const relative = mean > 0 ? (slope * n) / mean : 0;
      const trend = relative > r.trendThreshold ? 'rising' : relative < -r.trendThreshold ? 'falling' : 'flat';
      perKind.push({ kind, total, perDay: round(mean, 4), slope: round(slope, 4), trend: trend as 'rising' | 'falling' | 'flat' });
      if (stddev === 0) continue;
      for (const [i, count] of series.entries()) {
        const z = (count - mean) / stddev;
        if (z >= r.zThreshold && count >= r.minAnomalyCount)
          anomalies.push({ kind, date: dates[i] as string, count, mean: round(mean, 4), stddev: round(stddev, 4), z: round(z, 4) });
      }
    }
    perKind.sort((a, b) => b.total - a.total || cmp(a.kind, b.kind));
    anomalies.sort((a, b) => b.z - a.z || cmp(a.kind, b.kind) || cmp(a.date, b.date));
    const overTotal = facts.overBudget.reduce((s, o) => s + o.count, 0);
    const byKind = [...facts.overBudget].sort((a, b) => b.count - a.count || cmp(a.kind, b.kind));
    const top = facts.drifts.slice(0, r.maxDrifts).map((d) => ({ ...d, ageDays: Math.max(0, daysFrom(d.firstSeenAt, facts.asOf)) }));

    const insights: string[] = [];
    for (const a of anomalies.slice(0, 3)) insights.push(fill(r.sentences.anomaly, { ...a }));
    for (const k of perKind.filter((k) => k.trend !== 'flat').slice(0, 3)) insights.push(fill(r.sentences.trend, { ...k, days: n }));
    if (overTotal > 0)
      insights.push(
        fill(r.sentences.overBudget, {
          events: overTotal,
          percent: round((100 * overTotal) / Math.max(1, events), 1),
          kind: byKind[0]?.kind ?? '',
        }),
      );
    if (top[0])
      insights.push(
        fill(r.sentences.drift, { open: facts.drifts.length, check: top[0].check, subject: top[0].subject, age: top[0].ageDays }),
      );
    if (insights.length === 0) insights.push(r.sentences.quiet);

    return {
      window: { from: facts.from, to: facts.to, days: n },
      events,
      kinds: perKind,
      anomalies: anomalies.slice(0, r.maxAnomalies),
      overBudget: { events: overTotal, share: events > 0 ? round(overTotal / events, 4) : 0, byKind },
      drifts: { open: facts.drifts.length, top: top.map(({ firstSeenAt: _f, ...d }) => d) },
      insights,
    };
  },
  fromEvent: (event) => (event.kind.startsWith('drift.') ? {} : null),
});
