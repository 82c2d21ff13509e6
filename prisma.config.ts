import { defineConfig } from 'prisma/config';

// The datasource URL is not needed to generate the client; the server picks PGlite or
// PostgreSQL at run time through a driver adapter (packages/server/src/db/client.ts).
export default defineConfig({ schema: 'prisma/schema' });
