import type { PrismaClient } from '../generated/prisma/client.ts';

export type Prisma = InstanceType<typeof PrismaClient>;
/** The client inside `$transaction(async (tx) => ...)`. */
export type Tx = Omit<Prisma, '$connect' | '$disconnect' | '$on' | '$transaction' | '$extends'>;
