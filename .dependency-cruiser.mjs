/**
 * Dependency rules, checked by `npm run lint` (dependency-cruiser). Only runtime
 * imports count: `import type` is erased by the compiler and may cross any line.
 * A cycle counts when it is made of static imports: those decide the order in
 * which modules are evaluated (half-initialised modules, TDZ errors). A lazy
 * `import()` back into its importer runs after both are evaluated.
 * @type {import('dependency-cruiser').IConfiguration}
 */
export default {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'Modules that import each other (directly or through others) at runtime: move the shared part to a module both import.',
      from: {},
      to: {
        circular: true,
        dependencyTypesNot: ['type-only', 'dynamic-import'],
        viaOnly: { dependencyTypesNot: ['type-only', 'dynamic-import'] },
      },
    },
    {
      name: 'client-code-imports-no-server-code',
      severity: 'error',
      comment:
        'app/lib and app/components run in the browser too: they never import app/server or db/ at runtime (a type-only import is fine). Pass data in from a loader, or move the rule to app/lib.',
      from: { path: '^app/(lib|components)/', pathNot: '\\.test\\.tsx?$' },
      to: { path: '^(app/server/|db/)', dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'server-code-imports-no-components',
      severity: 'error',
      comment:
        'app/server never imports app/components, not even a type: a shape both sides use lives in app/lib (a module named for what it holds).',
      from: { path: '^app/server/' },
      to: { path: '^app/components/' },
    },
    {
      name: 'app-imports-no-emulators',
      severity: 'error',
      comment:
        'The app talks to the emulators only through the real clients, at the URLs its configuration gives (server.ts and scripts/ start them). Its tests may start one to test a client against it (storage.server.test.ts, mail.server.test.ts).',
      from: { path: '^app/', pathNot: '\\.test\\.tsx?$' },
      to: { path: '^emulators/' },
    },
    {
      name: 'emulators-import-no-app',
      severity: 'error',
      comment:
        "The emulators are separate programs that happen to share a repository: they import nothing from app/, not even a type. emulators/local-services.ts is the launcher's side (server.ts and scripts/cluster call it with the app's parsed configuration): it may import app types, never app code.",
      from: { path: '^emulators/', pathNot: '^emulators/local-services\\.ts$' },
      to: { path: '^app/' },
    },
    {
      name: 'local-services-import-no-app-code',
      severity: 'error',
      comment: "emulators/local-services.ts reads the type of the app's configuration; at runtime it imports nothing from app/.",
      from: { path: '^emulators/local-services\\.ts$' },
      to: { path: '^app/', dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'db-holds-schema-connection-migrations',
      severity: 'error',
      comment:
        "db/ is the schema, the connection and the migrations: it never imports app/ or emulators/ at runtime. The demo and bulk seed code, which builds rows with the app's own functions, lives in db/seed/; db/cli.ts reads the app's configuration.",
      from: { path: '^db/', pathNot: '^db/(seed/|cli\\.ts$)' },
      to: { path: '^(app|emulators)/', dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'server-layers-point-down',
      severity: 'error',
      comment:
        'app/server is layered forms and api → http → domain → infra (README, Architecture): a module imports its own layer or the ones below at runtime, never one above. Move the shared part down.',
      from: { path: '^app/server/(domain|infra)/' },
      to: { path: '^app/server/(forms|api|http)/', dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'infra-knows-no-rules',
      severity: 'error',
      comment: 'app/server/infra holds connections to the outside; it never imports the domain, HTTP or API layers at runtime.',
      from: { path: '^app/server/infra/' },
      to: { path: '^app/server/(domain|http|api)/', dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'http-serves-no-api',
      severity: 'error',
      comment:
        "app/server/http is middleware every route uses; it never imports the /api-only helpers or the screens' form handlers at runtime.",
      from: { path: '^app/server/http/' },
      to: { path: '^app/server/(api|forms)/', dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'forms-and-api-apart',
      severity: 'error',
      comment:
        "app/server/forms holds the screens' form handlers (Conform submissions, toasts, redirects), app/server/api the /api/* resource routes' helpers: two top layers over the same domain, neither imports the other at runtime.",
      from: { path: '^app/server/(forms|api)/' },
      to: { path: '^app/server/(forms|api)/', pathNot: '^app/server/$1/', dependencyTypesNot: ['type-only'] },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)(node_modules|build|build-[^/]*|\\.react-router|\\.data[^/]*|test-results[^/]*)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      extensions: ['.ts', '.tsx', '.js', '.mjs', '.json'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
    },
    reporterOptions: { text: { highlightFocused: true } },
  },
}
