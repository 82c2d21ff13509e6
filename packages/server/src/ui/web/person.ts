import type { Prisma } from '../../db/client.ts';
import { scopeToTenant } from '../../db/tenant-scope.ts';

/**
 * The person of the tenant's stakeholders rail a signed-in web user is: the active one with the
 * same email address (emails are unique among a tenant's people and never change). Keys a web
 * user creates may act only for this person or for none: a manager who could bind a key to
 * anyone could approve as anyone.
 */
export async function webPerson(
  prisma: Prisma,
  user: { tenantId: string; email: string },
): Promise<{ id: string; name: string } | undefined> {
  const people = await scopeToTenant(prisma, user.tenantId).stakeholderUser.findMany({
    where: { email: user.email.toLowerCase(), status: 'active' },
    orderBy: { id: 'asc' },
    select: { id: true, name: true },
    take: 2,
  });
  // Two people with one address (a race of their creation) bind the user to neither.
  return people.length === 1 ? people[0] : undefined;
}
