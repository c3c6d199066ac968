// The dependency walls of the workspace (ARCHITECTURE.md, "Map"): apps depend on packages, never on each
// other and never the reverse; the pure packages stay pure. `pnpm lint` runs it over apps, packages,
// scripts and bench; test/architecture/dependency-walls.test.ts shows each rule refusing a bad import.

/** Test files start apps and read fixtures; the walls are about the code that ships. */
const TEST_FILE = '\\.test\\.tsx?$';

/** Libraries and Node modules that reach outside the process: a pure package imports none of them. */
const IO_LIBRARIES = [
  '(^|/)node_modules/(@prisma|pg|ioredis|bullmq|express|pino|prom-client|undici|@bull-board)/',
  // `net` is left out: packages/domain/src/webhook-destination.ts uses only its address helpers (isIP, BlockList).
  '^(node:)?(fs|fs/promises|http|https|http2|tls|dgram|dns|dns/promises|child_process|cluster|worker_threads|readline)$',
];

/** A package that may import the domain and nothing else of the workspace. */
const onlyDomain = (name, why) => ({
  name: `${name}-imports-only-domain`,
  comment: why,
  severity: 'error',
  from: { path: `^packages/${name}/`, pathNot: TEST_FILE },
  to: { path: '^(apps|packages)/', pathNot: [`^packages/${name}/`, '^packages/domain/'] },
});

module.exports = {
  forbidden: [
    {
      name: 'no-app-imports-another-app',
      comment:
        'Apps share code only through packages/* (ARCHITECTURE.md): the API, the worker and the simulator run apart.',
      severity: 'error',
      from: { path: '^apps/([^/]+)/', pathNot: TEST_FILE },
      to: { path: '^apps/', pathNot: '^apps/$1/' },
    },
    {
      name: 'no-package-imports-an-app',
      comment:
        'Apps depend on packages, never the reverse: a use case an app and the CLI share lives in packages/use-cases.',
      severity: 'error',
      from: { path: '^packages/', pathNot: TEST_FILE },
      to: { path: '^apps/' },
    },
    {
      name: 'domain-imports-no-workspace-package',
      comment: 'packages/domain is pure (ARCHITECTURE.md, "Map"): money, identifiers, states and rules only.',
      severity: 'error',
      from: { path: '^packages/domain/', pathNot: TEST_FILE },
      to: { path: '^(apps|packages)/', pathNot: '^packages/domain/' },
    },
    {
      name: 'domain-imports-no-io-library',
      comment: 'packages/domain is pure: no database, queue, HTTP, file or process access.',
      severity: 'error',
      from: { path: '^packages/domain/', pathNot: TEST_FILE },
      to: { path: IO_LIBRARIES },
    },
    onlyDomain('contract', 'The wire contract is built from the domain\'s values only (ARCHITECTURE.md, "Map").'),
    onlyDomain(
      'recon',
      'Statement parsing and matching are pure (docs/reconciliation.md); recording runs is packages/db.',
    ),
    {
      name: 'recon-imports-no-io-library',
      comment: 'Statement parsing and matching are pure: the CLI reads the file and packages/db records the run.',
      severity: 'error',
      from: { path: '^packages/recon/', pathNot: TEST_FILE },
      to: { path: IO_LIBRARIES },
    },
    {
      name: 'no-circular-packages',
      comment: 'Packages form a layered graph: a cycle through two packages means neither can be understood alone.',
      severity: 'error',
      from: { path: '^packages/([^/]+)/' },
      to: { circular: true, viaSomeNot: '^packages/$1/' },
    },
    {
      name: 'not-to-unresolvable',
      comment: 'An import the walls cannot follow is an import they cannot judge.',
      severity: 'error',
      from: {},
      to: { couldNotResolve: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: ['(^|/)dist/', '^packages/db/src/generated/', '^bench/results/'] },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    // Workspace packages (`@payout/x`) resolve through their "source" export condition to src/index.ts,
    // as under tsx --conditions=source, so an import of a package lands on its own path.
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['source', 'import', 'require', 'node', 'default', 'types'],
      mainFields: ['module', 'main', 'types', 'typings'],
      extensions: ['.ts', '.tsx', '.d.ts', '.js', '.mjs', '.cjs', '.json'],
    },
    combinedDependencies: false,
  },
};
