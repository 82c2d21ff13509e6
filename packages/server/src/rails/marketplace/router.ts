import { contract, marketplaceEngagements, marketplaceListings, tierAdmits } from '@svc/contract';
import { initServer } from '@ts-rest/express';
import type { Response } from 'express';
import { ApiError } from '../../errors.ts';
import { serveResource } from '../../kit.ts';
import { actor, type RailDeps, tenantOf } from '../deps.ts';
import * as marketplace from './service.ts';
import { engagementStore, listingStore } from './service.ts';

/** Only specialist firms offer: creating a listing needs the specialist tier (or enterprise, above it). */
function requireFirmTier(res: Response): void {
  const { tier } = tenantOf(res);
  if (!tierAdmits(tier, 'specialist')) {
    throw new ApiError(
      'forbidden',
      `Only specialist firms create listings: tier specialist or above is needed; this tenant is on ${tier}.`,
      [{ field: 'tier', issue: 'specialist' }],
    );
  }
}

export function marketplaceHandlers({ db }: RailDeps) {
  const { prisma } = db;
  const listings = serveResource(db, marketplaceListings, listingStore);
  const engagements = serveResource(db, marketplaceEngagements, engagementStore);
  return initServer().router(contract.marketplace, {
    specialists: async ({ query }) => ({ status: 200, body: await marketplace.listedSpecialists(prisma, query) }),
    publishedListings: async ({ query }) => ({ status: 200, body: await marketplace.publishedListings(prisma, query) }),
    listings: {
      ...listings,
      create: async (args: { res: Response }) => {
        requireFirmTier(args.res);
        return listings.create(args);
      },
    },
    engagements,
    reviews: {
      list: async ({ query }) => ({ status: 200, body: await marketplace.listReviews(prisma, query) }),
      create: async ({ body, res }) => ({ status: 201, body: await marketplace.createReview(prisma, actor(res), body) }),
    },
    matching: async ({ query, res }) => ({ status: 200, body: await marketplace.matching(prisma, tenantOf(res).tenantId, query) }),
  });
}
