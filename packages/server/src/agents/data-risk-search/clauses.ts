import type { AgentContext } from '../types.ts';

/** The clauses of a dictionary's pinned version that an answer cites, in the order asked (missing ones left out). */
export async function clausesOf(ctx: AgentContext, dictionary: string, refs: readonly string[]): Promise<{ ref: string; title: string }[]> {
  const versionKey = ctx.versionOf(dictionary);
  const rows = await ctx.prisma.frameworkClause.findMany({
    where: { versionKey, ref: { in: [...refs] } },
    select: { ref: true, title: true },
  });
  return refs.flatMap((ref) => rows.filter((r) => r.ref === ref).map((r) => ({ ref: r.ref, title: r.title })));
}
