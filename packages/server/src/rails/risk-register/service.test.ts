import { describe, expect, it } from 'vitest';
import type { RiskTreatment as TreatmentRow } from '../../generated/prisma/client.ts';
import { applyTreatment, point, residualOf } from './service.ts';

/**
 * The residual rules of the risk register (5x5 likelihood x impact), worked by hand: what each
 * implemented treatment does, the order they apply in, and the rating bands of a score
 * (`low` 1-4, `medium` 5-9, `high` 10-16, `critical` 17-25).
 */

const T0 = new Date('2026-01-01T00:00:00.000Z');

const treatment = (id: string, type: string, implementedAt: string | null, likelihoodReduction = 0, impactReduction = 0): TreatmentRow => ({
  id,
  tenantId: 'ten_1',
  riskId: 'rsk_1',
  type,
  description: id,
  likelihoodReduction,
  impactReduction,
  controlIds: [],
  status: 'implemented',
  implementedAt: implementedAt ? new Date(implementedAt) : null,
  createdBy: 'key_1',
  createdAt: T0,
  updatedAt: T0,
});

const effect = (type: string, likelihoodReduction = 0, impactReduction = 0) => ({ type, likelihoodReduction, impactReduction });

describe('point: score = likelihood x impact, and its band', () => {
  it('rates by the band of the product', () => {
    expect(point(1, 1)).toEqual({ likelihood: 1, impact: 1, score: 1, rating: 'low' });
    expect(point(2, 2)).toMatchObject({ score: 4, rating: 'low' });
    expect(point(1, 5)).toMatchObject({ score: 5, rating: 'medium' });
    expect(point(3, 3)).toMatchObject({ score: 9, rating: 'medium' });
    expect(point(2, 5)).toMatchObject({ score: 10, rating: 'high' });
    expect(point(4, 4)).toMatchObject({ score: 16, rating: 'high' });
    expect(point(4, 5)).toMatchObject({ score: 20, rating: 'critical' });
    expect(point(5, 5)).toMatchObject({ score: 25, rating: 'critical' });
  });
});

describe('applyTreatment', () => {
  it('mitigate lowers likelihood and impact by their steps', () => {
    expect(applyTreatment(4, 5, effect('mitigate', 1, 2))).toEqual([3, 3]);
    expect(applyTreatment(4, 5, effect('mitigate', 0, 1))).toEqual([4, 4]);
  });

  it('mitigate floors at 1', () => {
    expect(applyTreatment(2, 2, effect('mitigate', 4, 4))).toEqual([1, 1]);
    expect(applyTreatment(1, 3, effect('mitigate', 1, 0))).toEqual([1, 3]);
  });

  it('transfer lowers the impact only, floor 1', () => {
    expect(applyTreatment(4, 5, effect('transfer', 0, 1))).toEqual([4, 4]);
    // A likelihood reduction on a transfer is ignored.
    expect(applyTreatment(4, 5, effect('transfer', 2, 1))).toEqual([4, 4]);
    expect(applyTreatment(4, 2, effect('transfer', 0, 4))).toEqual([4, 1]);
  });

  it('avoid sets the likelihood to 1 and keeps the impact', () => {
    expect(applyTreatment(4, 5, effect('avoid'))).toEqual([1, 5]);
    expect(applyTreatment(1, 5, effect('avoid'))).toEqual([1, 5]);
  });

  it('accept (and any other type) leaves the residual', () => {
    expect(applyTreatment(4, 5, effect('accept'))).toEqual([4, 5]);
    expect(applyTreatment(4, 5, effect('accept', 2, 2))).toEqual([4, 5]);
    expect(applyTreatment(3, 2, effect('unknown', 1, 1))).toEqual([3, 2]);
  });
});

describe('residualOf', () => {
  it('with no implemented treatment the residual is the inherent', () => {
    expect(residualOf(4, 5, [])).toEqual({ likelihood: 4, impact: 5, steps: [] });
  });

  it('applies the treatments in the order they were implemented, whatever the input order', () => {
    const mitigate = treatment('rtr_1', 'mitigate', '2026-02-01T00:00:00Z', 1, 0);
    const avoid = treatment('rtr_2', 'avoid', '2026-01-15T00:00:00Z');
    const transfer = treatment('rtr_3', 'transfer', '2026-03-01T00:00:00Z', 0, 2);
    const input = [mitigate, transfer, avoid];
    const r = residualOf(4, 5, input);
    expect(r.steps.map((s) => [s.treatment.id, s.point.likelihood, s.point.impact, s.point.score, s.point.rating, s.moved])).toEqual([
      ['rtr_2', 1, 5, 5, 'medium', true], // 20 -> 5
      ['rtr_1', 1, 5, 5, 'medium', false], // likelihood already 1
      ['rtr_3', 1, 3, 3, 'low', true], // 5 -> 3
    ]);
    expect([r.likelihood, r.impact]).toEqual([1, 3]);
    // The caller's list is not reordered.
    expect(input.map((t) => t.id)).toEqual(['rtr_1', 'rtr_3', 'rtr_2']);
  });

  it('the steps record the value after each treatment in implementation order', () => {
    // mitigate (likelihood -1, impact -1) then avoid: (3,3)=9 -> (1,3)=3; the reverse: (1,4)=4 -> (1,3)=3.
    const early = treatment('rtr_1', 'mitigate', '2026-01-01T00:00:00Z', 1, 1);
    const late = treatment('rtr_2', 'avoid', '2026-02-01T00:00:00Z');
    expect(residualOf(4, 4, [late, early]).steps.map((s) => s.point.score)).toEqual([9, 3]);
    const early2 = treatment('rtr_1', 'avoid', '2026-01-01T00:00:00Z');
    const late2 = treatment('rtr_2', 'mitigate', '2026-02-01T00:00:00Z', 1, 1);
    expect(residualOf(4, 4, [late2, early2]).steps.map((s) => s.point.score)).toEqual([4, 3]);
  });

  it('treatments implemented at the same moment apply in id order', () => {
    const same = '2026-02-01T00:00:00Z';
    const r = residualOf(3, 3, [treatment('rtr_b', 'transfer', same, 0, 1), treatment('rtr_a', 'mitigate', same, 1, 0)]);
    expect(r.steps.map((s) => s.treatment.id)).toEqual(['rtr_a', 'rtr_b']);
  });

  it('an implemented accept step never moves the residual', () => {
    // (2,3)=6 -> avoid -> (1,3)=3 moved; then accept: still (1,3).
    const r = residualOf(2, 3, [treatment('rtr_1', 'avoid', '2026-01-01T00:00:00Z'), treatment('rtr_2', 'accept', '2026-01-02T00:00:00Z')]);
    expect(r.steps.map((s) => s.moved)).toEqual([true, false]);
    expect(r.steps[1]?.point).toEqual({ likelihood: 1, impact: 3, score: 3, rating: 'low' });
  });

  it('a residual never goes below 1 x 1', () => {
    const r = residualOf(5, 5, [
      treatment('rtr_1', 'mitigate', '2026-01-01T00:00:00Z', 4, 4),
      treatment('rtr_2', 'mitigate', '2026-01-02T00:00:00Z', 4, 4),
      treatment('rtr_3', 'transfer', '2026-01-03T00:00:00Z', 0, 4),
    ]);
    expect([r.likelihood, r.impact]).toEqual([1, 1]);
    expect(r.steps.map((s) => s.moved)).toEqual([true, false, false]);
  });
});
