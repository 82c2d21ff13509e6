import type { ComposedReport } from '../../packages/server/src/rails/reporting/compose.ts';

/** The section of a composed report made by `block`; throws naming the blocks it has when there is none. */
export function section(r: ComposedReport, block: string): ComposedReport['sections'][number] {
  const s = r.sections.find((x) => x.block === block);
  if (!s) throw new Error(`no ${block} section in ${r.template}: ${r.sections.map((x) => x.block).join(', ')}`);
  return s;
}
