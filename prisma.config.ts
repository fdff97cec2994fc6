import { defineConfig } from 'prisma/config';

// Used by `prisma generate` and, where the schema engine exists (Docker, GitHub Actions), by
// `prisma migrate deploy`. Locally the migrations are applied by libs/persistence's runner.
export default defineConfig({
  schema: 'prisma/schema.prisma',
  migrations: { path: 'prisma/migrations' },
  datasource: { url: process.env.DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/pfs' },
});
