/**
 * The environment the benchmark's and the soak's clusters (scripts/cluster/start-cluster.ts) run
 * with: instances in production mode on an existing build and database, the emulators on the six
 * ports after `portBase` (`portBase` itself is nginx's), logs silent.
 */
export function productionClusterEnv(options: { buildDir: string; databaseUrl: string; portBase: number }) {
  const port = (i: number) => String(options.portBase + i)
  return {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    NODE_ENV: 'production',
    BUILD_DIR: options.buildDir,
    SKIP_BUILD: 'true',
    DATABASE_URL: options.databaseUrl,
    SUPABASE_EMULATOR_PORT: port(1),
    STRIPE_EMULATOR_PORT: port(2),
    GITHUB_EMULATOR_PORT: port(3),
    MAIL_EMULATOR_SMTP_PORT: port(4),
    MAIL_EMULATOR_WEB_PORT: port(5),
    S3_EMULATOR_PORT: port(6),
    LOG_SILENT: 'true',
  }
}
