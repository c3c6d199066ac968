import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { parse, parseAllDocuments } from 'yaml';
import { ConfigMap, Namespace, PersistentVolumeClaim, Secret, Service, ServiceAccount } from 'kubernetes-models/v1';
import { Deployment } from 'kubernetes-models/apps/v1';
import { CronJob, Job } from 'kubernetes-models/batch/v1';
import { HorizontalPodAutoscaler } from 'kubernetes-models/autoscaling/v2';
import { NetworkPolicy } from 'kubernetes-models/networking.k8s.io/v1';
import { PodDisruptionBudget } from 'kubernetes-models/policy/v1';
import { ScaledObject } from '@kubernetes-models/keda/keda.sh/v1alpha1';
import {
  apiConfigSchema,
  ConfigError,
  cliConfigSchema,
  loadConfig,
  railSimConfigSchema,
  workerConfigSchema,
} from '@payout/config';
import { DRAIN_MS } from '@payout/api';
import { PAYOUT_QUEUE } from '@payout/queue';
import { STATEMENT_MEMORY_BUDGET_MB } from '@payout/use-cases';
import { createMetrics } from '@payout/telemetry';
import { eventually } from '../support/eventually.js';
import { useStack } from '../support/stack.js';
import { useApi } from '../support/api.js';

// deploy/kubernetes (docs/operations.md, "Deploying on Kubernetes") rendered as `kubectl apply -k` would
// render it, every object checked against the Kubernetes OpenAPI schemas, then the contract between the
// manifests and the service: the README's settings, the health endpoints, the admin listener, the worker's
// stop, and the autoscaler's metric read from a real worker's /metrics.

const repo = fileURLToPath(new URL('../../', import.meta.url));
const RENDERINGS = [
  'base',
  'overlays/production',
  'overlays/production-cpu-autoscaling',
  'overlays/development',
  'overlays/development-prometheus-operator',
];

type K8sObject = { apiVersion: string; kind: string; metadata: { name: string; namespace?: string } } & Record<
  string,
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- rendered YAML, read field by field below
  any
>;

// The kinds the manifests may use, each with its model from the Kubernetes (and KEDA) OpenAPI schemas.
const MODELS: Record<string, new (data: never) => { validate(): void }> = {
  'v1/Namespace': Namespace,
  'v1/ConfigMap': ConfigMap,
  'v1/Secret': Secret,
  'v1/Service': Service,
  'v1/ServiceAccount': ServiceAccount,
  'v1/PersistentVolumeClaim': PersistentVolumeClaim,
  'apps/v1/Deployment': Deployment,
  'batch/v1/Job': Job,
  'batch/v1/CronJob': CronJob,
  'autoscaling/v2/HorizontalPodAutoscaler': HorizontalPodAutoscaler,
  'networking.k8s.io/v1/NetworkPolicy': NetworkPolicy,
  'policy/v1/PodDisruptionBudget': PodDisruptionBudget,
  'keda.sh/v1alpha1/ScaledObject': ScaledObject,
  'monitoring.coreos.com/v1/PodMonitor': requiring('spec.selector.matchLabels', 'spec.podMetricsEndpoints.0.port'),
  'monitoring.coreos.com/v1/PrometheusRule': requiring('spec.groups.0.rules.0.expr'),
  'monitoring.coreos.com/v1alpha1/AlertmanagerConfig': requiring('spec.route.receiver', 'spec.receivers.0.name'),
};

/**
 * prometheus-operator's kinds, for which no model package is installed: the fields without which the
 * operator ignores the object, and nothing else.
 */
function requiring(...paths: string[]): new (data: never) => { validate(): void } {
  return class {
    constructor(private readonly data: Record<string, unknown>) {}
    validate(): void {
      for (const path of paths) {
        const value = path
          .split('.')
          .reduce<unknown>((at, key) => (at as Record<string, unknown> | undefined)?.[key], this.data);
        if (value === undefined) throw new Error(`${path} is required`);
      }
    }
  };
}

function validateObject(object: K8sObject): void {
  const Model = MODELS[`${object.apiVersion}/${object.kind}`];
  if (!Model) throw new Error(`unknown kind ${object.apiVersion}/${object.kind} (${object.metadata.name})`);
  new Model(object as never).validate();
}

const rendered = new Map<string, K8sObject[]>();
function render(dir: string): K8sObject[] {
  const cached = rendered.get(dir);
  if (cached) return cached;
  let text: string;
  try {
    text = execFileSync('kubectl', ['kustomize', `deploy/kubernetes/${dir}`], { cwd: repo, encoding: 'utf8' });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
      throw new Error(
        'kubectl is not on PATH: these tests render deploy/kubernetes with `kubectl kustomize` (kubectl 1.27 or later, which has kustomize built in). Install kubectl; the tests do not run without it.',
        { cause: error },
      );
    }
    throw error;
  }
  const objects = parseAllDocuments(text).map((document) => document.toJSON() as K8sObject);
  rendered.set(dir, objects);
  return objects;
}

function find(objects: K8sObject[], kind: string, name: string): K8sObject {
  const found = objects.find((o) => o.kind === kind && (o.metadata.name === name || isGenerated(o, name)));
  if (!found) throw new Error(`no ${kind} ${name} in the rendering`);
  return found;
}

/** configMapGenerator appends a content hash to the name: `payout-gateway-api` → `payout-gateway-api-6fbthc42mc`. */
function isGenerated(object: K8sObject, name: string): boolean {
  return object.kind === 'ConfigMap' && new RegExp(`^${name}-[a-z0-9]{10}$`).test(object.metadata.name);
}

function container(objects: K8sObject[], kind: 'Deployment' | 'Job' | 'CronJob', name: string): K8sObject {
  const owner = find(objects, kind, name);
  const template = kind === 'CronJob' ? owner.spec.jobTemplate.spec.template : owner.spec.template;
  const [first] = template.spec.containers as K8sObject[];
  if (!first) throw new Error(`${kind} ${name} has no container`);
  return first;
}

/**
 * The environment a container starts with, as the kubelet assembles it: envFrom ConfigMaps and Secrets, then
 * `env`. A key reference marked optional whose key is absent is left out, as Kubernetes does. Secrets that the
 * operator creates (absent from the rendering) are read from `operatorSecret`.
 */
function environmentOf(
  objects: K8sObject[],
  spec: K8sObject,
  operatorSecret: Record<string, string> = {},
): Record<string, string> {
  const dataOf = (kind: 'ConfigMap' | 'Secret', name: string): Record<string, string> | undefined => {
    const object = objects.find((o) => o.kind === kind && o.metadata.name === name);
    if (!object) return kind === 'Secret' ? operatorSecret : undefined;
    return { ...object.data, ...object.stringData } as Record<string, string>;
  };
  const env: Record<string, string> = {};
  for (const source of (spec.envFrom ?? []) as K8sObject[]) {
    const data = source.configMapRef
      ? dataOf('ConfigMap', source.configMapRef.name)
      : dataOf('Secret', source.secretRef.name);
    if (!data) throw new Error(`envFrom names ${JSON.stringify(source)}, which the rendering lacks`);
    Object.assign(env, data);
  }
  for (const variable of (spec.env ?? []) as K8sObject[]) {
    if (variable.value !== undefined) {
      env[variable.name] = variable.value;
      continue;
    }
    const ref = variable.valueFrom.configMapKeyRef ?? variable.valueFrom.secretKeyRef;
    const data = dataOf(variable.valueFrom.configMapKeyRef ? 'ConfigMap' : 'Secret', ref.name);
    const value = data?.[ref.key];
    if (value !== undefined) env[variable.name] = value;
    else if (!ref.optional) throw new Error(`${variable.name} refers to ${ref.name}/${ref.key}, which does not exist`);
  }
  return env;
}

/** Every key a container's environment can carry, including optional references whose key is not set. */
function wiredNames(objects: K8sObject[], spec: K8sObject, operatorSecret: Record<string, string>): Set<string> {
  const optional = ((spec.env ?? []) as K8sObject[]).filter(
    (v) => (v.valueFrom?.configMapKeyRef ?? v.valueFrom?.secretKeyRef)?.optional === true,
  );
  return new Set([...Object.keys(environmentOf(objects, spec, operatorSecret)), ...optional.map((v) => v.name)]);
}

function portNumber(spec: K8sObject, port: string | number): number {
  if (typeof port === 'number') return port;
  const named = (spec.ports as K8sObject[]).find((p) => p.name === port);
  if (!named) throw new Error(`no container port named ${port}`);
  return named.containerPort as number;
}

/** What the operator's own Secret holds in production (docs/operations.md): stand-ins of the right shape. */
const OPERATOR_SECRET = {
  DATABASE_URL: 'postgresql://payouts:operator-password@postgres-primary:5432/payouts',
  REDIS_URL: 'redis://:operator-password@redis:6379',
  ADMIN_TOKEN: 'an-operator-admin-token-0123456789',
  PAYIN_CALLBACK_SECRET: 'an-operator-callback-secret-0123456789',
  SECOND_FACTOR_KEY: '5e'.repeat(32),
};

/** README.md's "Configuration" table: each variable with the apps its "Used by" cell names. */
function readmeSettings(): { name: string; usedBy: string[] }[] {
  const readme = readFileSync(`${repo}README.md`, 'utf8');
  const section = readme.slice(
    readme.indexOf('## Configuration'),
    readme.indexOf('\n## ', readme.indexOf('## Configuration') + 1),
  );
  const known = knownSettingNames();
  const rows = section.split('\n').filter((line) => line.startsWith('| `'));
  return rows.flatMap((row) => {
    const [variables = '', , usedBy = ''] = row
      .split('|')
      .slice(1)
      .map((cell) => cell.trim());
    const names = [...variables.matchAll(/`([A-Z0-9_]+)`/g)].map((m) => m[1]!);
    const [first = ''] = names;
    const apps = usedBy
      .replace(/`/g, '')
      .split(',')
      .map((app) => app.trim());
    // `INQUIRY_UPI_FIRST_DELAY_MS` / `_SPACING_MS`: a name starting with `_` continues a prefix of the first
    // name; the apps' schemas say which prefix.
    return names.map((name) => ({
      name: name.startsWith('_') ? expandSuffix(first, name, known) : name,
      usedBy: apps,
    }));
  });
}

function expandSuffix(first: string, suffix: string, known: Set<string>): string {
  const words = first.split('_');
  for (let length = words.length - 1; length > 0; length--) {
    const candidate = `${words.slice(0, length).join('_')}${suffix}`;
    if (known.has(candidate)) return candidate;
  }
  throw new Error(`README names ${suffix} after ${first}, which no app's schema reads`);
}

/** Every setting some app's schema reads, with its default (optional ones without a default are not listed). */
function knownSettingNames(): Set<string> {
  const env = { NODE_ENV: 'test' };
  return new Set(
    [apiConfigSchema, workerConfigSchema, cliConfigSchema, railSimConfigSchema].flatMap((schema) =>
      Object.keys(loadConfig(schema, env) as object),
    ),
  );
}

describe('the manifests against the Kubernetes OpenAPI schemas', () => {
  it.each(RENDERINGS)('when %s is rendered, then every object is of a known kind and valid', (dir) => {
    const objects = render(dir);
    expect(objects.length).toBeGreaterThan(0);
    for (const object of objects)
      expect(() => validateObject(object), `${object.kind} ${object.metadata.name}`).not.toThrow();
  });

  it.each(RENDERINGS.filter((dir) => dir.startsWith('overlays/')))(
    'when %s is rendered, then every object but the Namespace carries the overlay’s one namespace',
    (dir) => {
      const objects = render(dir);
      const namespace = objects.find((o) => o.kind === 'Namespace')?.metadata.name;
      expect(namespace, dir).toMatch(/^payouts/);
      // Without a namespace, `kubectl apply` puts an object in the context's namespace: an autoscaler or a
      // monitor a component adds would land beside the release rather than in it.
      const elsewhere = objects
        .filter((o) => o.kind !== 'Namespace' && o.metadata.namespace !== namespace)
        .map((o) => `${o.kind} ${o.metadata.name} in ${o.metadata.namespace ?? 'no namespace'}`);
      expect(elsewhere, dir).toEqual([]);
    },
  );

  it('when a Deployment says replicas: "two", then validation refuses it', () => {
    const worker = find(render('base'), 'Deployment', 'payout-gateway-worker');
    const broken = { ...worker, spec: { ...worker.spec, replicas: 'two' } };
    expect(() => validateObject(broken)).toThrow(/replicas must be integer/);
  });

  it('when an object is of a kind the manifests do not use, then validation refuses it', () => {
    const widget = { apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w' } };
    expect(() => validateObject(widget)).toThrow(/unknown kind example.com\/v1\/Widget/);
  });
});

describe('the configuration of every app', () => {
  const apps = (dir: string): Record<string, K8sObject> => {
    const objects = render(dir);
    const byApp: Record<string, K8sObject> = {
      api: container(objects, 'Deployment', 'payout-gateway-api'),
      worker: container(objects, 'Deployment', 'payout-gateway-worker'),
    };
    if (dir === 'overlays/development') byApp['rail-sim'] = container(objects, 'Deployment', 'rail-sim');
    return byApp;
  };

  it.each(['base', 'overlays/production', 'overlays/development'])(
    'when %s is rendered, then every README setting reaches each app that reads it',
    (dir) => {
      const objects = render(dir);
      const byApp = apps(dir);
      const wired = (app: string) => wiredNames(objects, byApp[app]!, OPERATOR_SECRET);
      const configMapKeys = new Set(objects.filter((o) => o.kind === 'ConfigMap').flatMap((o) => Object.keys(o.data)));
      const settings = readmeSettings();
      expect(settings.length).toBeGreaterThan(50);
      for (const { name, usedBy } of settings) {
        for (const app of usedBy) {
          if (app === 'pnpm start') {
            // The launcher's own setting: no app reads it, but it is written down with the rest.
            expect(configMapKeys.has(name), `${name} in a ConfigMap`).toBe(true);
          } else if (app === 'rail-sim') {
            // The simulator runs in the development overlay only.
            if (byApp['rail-sim']) expect(wired('rail-sim').has(name), `${name} for rail-sim`).toBe(true);
          } else {
            // `all` and `cli`: the operator commands run in an API pod (`kubectl exec`), so the API carries them.
            const targets = app === 'all' ? ['api', 'worker'] : app === 'cli' ? ['api'] : [app];
            for (const target of targets) expect(wired(target).has(name), `${name} for ${target}`).toBe(true);
          }
        }
      }
    },
  );

  it('when the production API and worker environments are loaded with the operator Secret, then their schemas accept every value', () => {
    const objects = render('overlays/production');
    const api = loadConfig(
      apiConfigSchema,
      environmentOf(objects, container(objects, 'Deployment', 'payout-gateway-api'), OPERATOR_SECRET),
    );
    const worker = loadConfig(
      workerConfigSchema,
      environmentOf(objects, container(objects, 'Deployment', 'payout-gateway-worker'), OPERATOR_SECRET),
    );
    const migrate = loadConfig(
      cliConfigSchema,
      environmentOf(objects, container(objects, 'Job', 'payout-gateway-migrate'), OPERATOR_SECRET),
    );
    expect(api.NODE_ENV).toBe('production');
    expect(api.ADMIN_HOST).toBe('0.0.0.0');
    expect(api.RAIL_RESPONSE_TIMEOUT_MS).toBe(5_000);
    expect(worker.RAIL_RESPONSE_TIMEOUT_MS).toBe(10_000);
    expect(migrate.DATABASE_URL).toBe(OPERATOR_SECRET.DATABASE_URL);
    // Two sponsor banks, the same list for the API and the worker, each with its own settlement account.
    expect(worker.banks.map((b) => b.name)).toEqual(['primary', 'secondary']);
    expect(api.banks).toEqual(worker.banks);
    for (const bank of worker.banks) {
      expect(bank.baseUrl, bank.name).toMatch(/^https:\/\//);
      expect(bank.baseUrl, bank.name).not.toMatch(/rail-sim|127\.0\.0\.1/);
      expect(bank.settlementAccount, bank.name).toBeDefined();
    }
  });

  it('when production is rendered, then each bank’s statement of the day is read by its own CronJob pod, against that bank’s settlement account, within its memory budget, never in an API pod', () => {
    const objects = render('overlays/production');
    const statementJobs = objects.filter(
      (o) => o.kind === 'CronJob' && o.spec.jobTemplate.metadata.labels['app.kubernetes.io/component'] === 'statement',
    );
    const banks = loadConfig(
      workerConfigSchema,
      environmentOf(objects, container(objects, 'Deployment', 'payout-gateway-worker'), OPERATOR_SECRET),
    ).banks;
    // One CronJob per bank of BANKS, and none for a bank that is not there.
    expect(statementJobs.map((o) => o.metadata.name).sort()).toEqual(
      banks.map((b) => `payout-gateway-statement-${b.name}`).sort(),
    );
    for (const bank of banks) {
      const cronJob = find(objects, 'CronJob', `payout-gateway-statement-${bank.name}`);
      const job = cronJob.spec.jobTemplate.spec;
      const pod = job.template.spec;
      const [statement] = pod.containers as K8sObject[];
      expect(cronJob.spec.concurrencyPolicy).toBe('Forbid');
      // Its own bank's file, from its own folder, held to its own settlement account (--bank).
      expect([...statement!.command, ...statement!.args].join(' ')).toMatch(
        new RegExp(
          `exec payout-cli recon statement --progress --bank ${bank.name} --file "/statements/${bank.name}/statement-\\$\\$\\(TZ=Asia/Kolkata date -d yesterday \\+%F\\)\\.mt940"`,
        ),
      );
      expect(job.template.metadata.labels['app.kubernetes.io/component']).toBe('statement');
      // The CLI's budget, and the limit above it; no API pod reads a statement on a schedule.
      expect(statement!.resources.requests.memory).toBe(`${STATEMENT_MEMORY_BUDGET_MB}Mi`);
      expect(Number.parseInt(statement!.resources.limits.memory as string, 10)).toBeGreaterThan(
        STATEMENT_MEMORY_BUDGET_MB,
      );
      expect(pod.securityContext.runAsNonRoot).toBe(true);
      expect(statement!.securityContext.readOnlyRootFilesystem).toBe(true);
      expect((statement!.volumeMounts as K8sObject[]).find((m) => m.mountPath === '/statements')?.readOnly).toBe(true);
      // The claim the files land on ships with the component.
      const claim = (pod.volumes as K8sObject[]).find((v) => v.name === 'statements')!.persistentVolumeClaim;
      const volume = find(objects, 'PersistentVolumeClaim', claim.claimName as string);
      expect(volume.spec.accessModes).toEqual(['ReadWriteMany']);
      const cli = loadConfig(cliConfigSchema, environmentOf(objects, statement!, OPERATOR_SECRET));
      expect(cli.DATABASE_URL).toBe(OPERATOR_SECRET.DATABASE_URL);
      expect(cli.STATEMENT_MAX_BYTES).toBeGreaterThan(1024 * 1024 * 1024);
      expect(cli.banks.find((b) => b.name === bank.name)?.settlementAccount).toBe(bank.settlementAccount);
    }
    for (const deployment of objects.filter((o) => o.kind === 'Deployment')) {
      const args = (deployment.spec.template.spec.containers as K8sObject[]).flatMap((c) => [
        ...((c.command as string[] | undefined) ?? []),
        ...((c.args as string[] | undefined) ?? []),
      ]);
      expect(args.join(' '), deployment.metadata.name).not.toContain('recon statement');
    }
  });

  it('when the base is loaded as it stands, then the API refuses its placeholder secrets', () => {
    const objects = render('base');
    const env = environmentOf(objects, container(objects, 'Deployment', 'payout-gateway-api'));
    expect(env.NODE_ENV).toBe('production');
    expect(() => loadConfig(apiConfigSchema, env)).toThrow(ConfigError);
    expect(() => loadConfig(apiConfigSchema, env)).toThrow(/ADMIN_TOKEN: must be set to a real secret/);
  });

  it('when production is rendered, then it ships no Secret and the pods read the operator-created one', () => {
    const objects = render('overlays/production');
    expect(objects.filter((o) => o.kind === 'Secret')).toEqual([]);
    const refs = ['payout-gateway-api', 'payout-gateway-worker'].flatMap((name) =>
      (container(objects, 'Deployment', name).env as K8sObject[]).flatMap((v) => v.valueFrom?.secretKeyRef ?? []),
    );
    expect(new Set(refs.map((r: K8sObject) => r.name))).toEqual(new Set(['payout-gateway-secrets']));
    expect(objects.some((o) => o.metadata.name.startsWith('rail-sim'))).toBe(false);
  });

  it('when the development overlay is loaded, then the API and the simulator accept its environment', () => {
    const objects = render('overlays/development');
    const api = loadConfig(
      apiConfigSchema,
      environmentOf(objects, container(objects, 'Deployment', 'payout-gateway-api')),
    );
    const sim = loadConfig(railSimConfigSchema, environmentOf(objects, container(objects, 'Deployment', 'rail-sim')));
    expect(api.RAIL_BASE_URL).toBe(`http://rail-sim:${sim.RAIL_SIM_PORT}`);
  });
});

describe('what the pods run and how they stop', () => {
  const compose = parse(readFileSync(`${repo}docker-compose.yml`, 'utf8')) as {
    services: Record<string, { command: string[] }>;
  };

  it('when each app is rendered, then it runs the image command docker-compose.yml runs for it', () => {
    const production = render('overlays/production');
    const development = render('overlays/development');
    expect(container(production, 'Deployment', 'payout-gateway-api').command).toEqual(compose.services.api?.command);
    expect(container(production, 'Deployment', 'payout-gateway-worker').command).toEqual(
      compose.services.worker?.command,
    );
    expect(container(production, 'Job', 'payout-gateway-migrate').command).toEqual(compose.services.migrate?.command);
    expect(container(development, 'Deployment', 'rail-sim').command).toEqual(compose.services['rail-sim']?.command);
  });

  it('when a pod is told to stop, then Kubernetes waits longer than its longest shutdown path before killing it', () => {
    const objects = render('overlays/production');
    const worker = find(objects, 'Deployment', 'payout-gateway-worker');
    const env = environmentOf(objects, container(objects, 'Deployment', 'payout-gateway-worker'), OPERATOR_SECRET);
    const graceS = loadConfig(workerConfigSchema, env).SHUTDOWN_GRACE_MS / 1000;
    // The jobs' grace, a forced close as long again, then the payouts queue's close: three graces when Redis
    // hangs (apps/worker/src/worker-process.ts), and time for the rest to close.
    expect(worker.spec.template.spec.terminationGracePeriodSeconds).toBeGreaterThanOrEqual(3 * graceS + 10);
    const api = find(objects, 'Deployment', 'payout-gateway-api').spec.template.spec;
    const [, pause] = api.containers[0].lifecycle.preStop.exec.command as [string, string];
    // The preStop pause, the drain (requests in flight, then every connection closed), then Redis and
    // PostgreSQL closed; keep-alive (65 s) is no longer on the path (test/deploy/api-shutdown.test.ts).
    expect(api.terminationGracePeriodSeconds).toBeGreaterThanOrEqual(Number(pause) + DRAIN_MS / 1000 + 10);
  });

  it('when the pods are rendered, then none runs as root or writes to its image', () => {
    for (const dir of RENDERINGS) {
      const objects = render(dir);
      for (const owner of objects.filter((o) => o.kind === 'Deployment' || o.kind === 'Job')) {
        const pod = owner.spec.template.spec;
        expect(pod.securityContext.runAsNonRoot, owner.metadata.name).toBe(true);
        expect(pod.securityContext.runAsUser, owner.metadata.name).toBeGreaterThan(0);
        for (const c of pod.containers as K8sObject[]) {
          expect(c.securityContext.readOnlyRootFilesystem, c.name).toBe(true);
          expect(c.securityContext.allowPrivilegeEscalation, c.name).toBe(false);
          expect(c.resources.requests.memory, c.name).toBeDefined();
          expect(c.resources.limits.memory, c.name).toBeDefined();
        }
      }
      for (const name of ['payout-gateway-api', 'payout-gateway-worker']) {
        expect(find(objects, 'PodDisruptionBudget', name).spec.minAvailable).toBe(1);
      }
    }
  });

  it('when the admin listener is rendered, then it binds the pod, its Service is ClusterIP and a policy guards it', () => {
    const objects = render('overlays/production');
    const api = container(objects, 'Deployment', 'payout-gateway-api');
    const env = environmentOf(objects, api, OPERATOR_SECRET);
    expect(env.ADMIN_HOST).toBe('0.0.0.0');
    const adminPort = Number(env.ADMIN_PORT);
    const apiServices = objects.filter(
      (o) => o.kind === 'Service' && o.spec.selector['app.kubernetes.io/component'] === 'api',
    );
    const admin = apiServices.filter((s) =>
      (s.spec.ports as K8sObject[]).some((p) => portNumber(api, p.targetPort) === adminPort),
    );
    expect(admin.map((s) => s.metadata.name)).toEqual(['payout-gateway-admin']);
    expect(admin[0]!.spec.type).toBe('ClusterIP');
    expect(admin[0]!.spec.ports).toHaveLength(1);
    const merchant = find(objects, 'Service', 'payout-gateway-api');
    expect((merchant.spec.ports as K8sObject[]).map((p) => portNumber(api, p.targetPort))).toEqual([Number(env.PORT)]);
    const policy = find(objects, 'NetworkPolicy', 'payout-gateway-api');
    const adminRule = (policy.spec.ingress as K8sObject[]).find((rule) =>
      (rule.ports as K8sObject[]).some((p) => portNumber(api, p.port) === adminPort),
    );
    expect(adminRule?.from?.length).toBeGreaterThan(0);
    // The metrics listener binds the pod too, on the port the scrape names, and no Service carries it.
    expect(env.METRICS_HOST).toBe('0.0.0.0');
    const metricsPort = Number(env.METRICS_PORT);
    expect(portNumber(api, 'metrics')).toBe(metricsPort);
    expect(new Set([Number(env.PORT), adminPort, metricsPort]).size).toBe(3);
    const services = objects.filter((o) => o.kind === 'Service');
    for (const service of services) {
      for (const port of service.spec.ports as K8sObject[]) {
        expect(port.targetPort, service.metadata.name).not.toBe('metrics');
        expect(port.targetPort, service.metadata.name).not.toBe(metricsPort);
      }
    }
  });

  it('when an operator command is run, then it runs in a pod of its own sized for the CLI, never inside a worker whose limit leaves less', () => {
    const objects = render('overlays/production');
    const ops = find(objects, 'CronJob', 'payout-gateway-ops');
    // A template only: it never runs on its own; deploy/ops.sh creates each Job from it.
    expect(ops.spec.suspend).toBe(true);
    const cli = container(objects, 'CronJob', 'payout-gateway-ops');
    expect(cli.command).toEqual(['payout-cli']);
    const mib = (quantity: string) => Number.parseInt(quantity, 10);
    // The CLI's fixed cost is most of its statement budget (docs/reconciliation.md, "Memory").
    expect(mib(cli.resources.requests.memory as string)).toBeGreaterThanOrEqual(STATEMENT_MEMORY_BUDGET_MB);
    expect(mib(cli.resources.limits.memory as string)).toBeGreaterThan(STATEMENT_MEMORY_BUDGET_MB);
    // What a worker leaves above its own request is less than that: a command exec'd beside it would get
    // the worker killed.
    const worker = container(objects, 'Deployment', 'payout-gateway-worker');
    expect(
      mib(worker.resources.limits.memory as string) - mib(worker.resources.requests.memory as string),
    ).toBeLessThan(STATEMENT_MEMORY_BUDGET_MB);
    const config = loadConfig(cliConfigSchema, environmentOf(objects, cli, OPERATOR_SECRET));
    expect(config.DATABASE_URL).toBe(OPERATOR_SECRET.DATABASE_URL);
    expect(config.REDIS_URL).toBe(OPERATOR_SECRET.REDIS_URL);
    expect(config.banks.map((b) => b.name)).toEqual(['primary', 'secondary']);
    expect(find(objects, 'NetworkPolicy', 'payout-gateway-ops').spec.podSelector.matchLabels).toEqual(
      ops.spec.jobTemplate.spec.template.metadata.labels,
    );
  });

  it('when the docs give an operator command for a cluster, then it runs through deploy/ops.sh, never kubectl exec into a pod', () => {
    const docs = readdirSync(`${repo}docs`).filter((f) => f.endsWith('.md'));
    const execs = docs.flatMap((file) =>
      readFileSync(`${repo}docs/${file}`, 'utf8')
        .split('\n')
        .filter((line) => /kubectl\b.*\bexec\b.*payout-cli/.test(line))
        .map((line) => `${file}: ${line.trim()}`),
    );
    expect(execs).toEqual([]);
    const operations = readFileSync(`${repo}docs/operations.md`, 'utf8');
    expect(operations).toMatch(/deploy\/ops\.sh reconcile/);
  });
});

describe('the doors of the production cluster', () => {
  const production = () => render('overlays/production');
  const apiEnv = () =>
    environmentOf(production(), container(production(), 'Deployment', 'payout-gateway-api'), OPERATOR_SECRET);
  const portOf = (url: string) => {
    const parsed = new URL(url);
    return Number(parsed.port || (parsed.protocol === 'https:' ? 443 : parsed.protocol === 'redis:' ? 6379 : 5432));
  };
  const egressPorts = (policy: K8sObject) =>
    (policy.spec.egress as K8sObject[]).map((rule) => {
      expect(rule.ports?.length, 'an egress rule without ports admits everything').toBeGreaterThan(0);
      return (rule.ports as K8sObject[]).map((p) => `${p.protocol ?? 'TCP'}/${p.port}`);
    });

  it('when the admin port and the metrics ports are rendered, then only the console proxy reaches the admin port and only the Prometheus of the monitoring namespace the metrics ports', () => {
    for (const dir of ['base', 'overlays/production', 'overlays/development']) {
      const objects = render(dir);
      const api = container(objects, 'Deployment', 'payout-gateway-api');
      const env = environmentOf(objects, api, OPERATOR_SECRET);
      const adminPort = Number(env.ADMIN_PORT);
      const metricsPort = Number(env.METRICS_PORT);
      const apiIngress = find(objects, 'NetworkPolicy', 'payout-gateway-api').spec.ingress as K8sObject[];
      const onPort = (port: number) =>
        apiIngress.filter((rule) => (rule.ports as K8sObject[]).some((p) => portNumber(api, p.port) === port));
      const rules = [
        ...onPort(adminPort),
        ...onPort(metricsPort),
        ...(find(objects, 'NetworkPolicy', 'payout-gateway-worker').spec.ingress as K8sObject[]),
      ];
      // Each rule opens one port: Prometheus's never opens the admin listener, the proxy's never the metrics.
      for (const rule of rules) expect(rule.ports, dir).toHaveLength(1);
      const peersOf = (found: K8sObject[]) =>
        found.flatMap((rule) =>
          (rule.from as K8sObject[]).map(
            (p) => p.namespaceSelector.matchLabels['kubernetes.io/metadata.name'] as string,
          ),
        );
      expect(peersOf(onPort(adminPort)), dir).toEqual(['ingress-nginx']);
      expect(peersOf(onPort(metricsPort)), dir).toEqual(['monitoring']);
      for (const rule of rules) {
        expect(rule.from?.length, dir).toBeGreaterThan(0);
        for (const peer of rule.from as K8sObject[]) {
          expect(Object.keys(peer).sort(), dir).toEqual(['namespaceSelector', 'podSelector']);
          expect(['ingress-nginx', 'monitoring'], dir).toContain(
            peer.namespaceSelector.matchLabels?.['kubernetes.io/metadata.name'],
          );
          expect(peer.namespaceSelector.matchExpressions, dir).toBeUndefined();
          const namespace = peer.namespaceSelector.matchLabels['kubernetes.io/metadata.name'] as string;
          // Prometheus's own pods in the monitoring namespace, not every pod there, and only to the metrics
          // ports; the console's proxy in the ingress controller's, and only to the admin listener.
          expect(peer.podSelector.matchLabels, dir).toEqual(
            namespace === 'monitoring'
              ? { 'app.kubernetes.io/name': 'prometheus' }
              : { 'payout-gateway/admin-access': 'true' },
          );
        }
      }
      const workerPeers = (find(objects, 'NetworkPolicy', 'payout-gateway-worker').spec.ingress as K8sObject[]).flatMap(
        (rule) => (rule.from as K8sObject[]).map((p) => p.namespaceSelector.matchLabels['kubernetes.io/metadata.name']),
      );
      expect(workerPeers, dir).toEqual(['monitoring']);
    }
  });

  /** An address as a number and its bit count, for CIDR arithmetic over IPv4 and IPv6 alike. */
  const addressOf = (text: string): { value: bigint; bits: number } => {
    if (text.includes(':')) {
      const [head = '', tail = ''] = text.split('::');
      const groups = (part: string) => (part ? part.split(':') : []);
      const missing = 8 - groups(head).length - groups(tail).length;
      const all = [...groups(head), ...Array<string>(text.includes('::') ? missing : 0).fill('0'), ...groups(tail)];
      return { value: all.reduce((n, g) => (n << 16n) | BigInt(`0x${g}`), 0n), bits: 128 };
    }
    return { value: text.split('.').reduce((n, o) => (n << 8n) | BigInt(o), 0n), bits: 32 };
  };
  const within = (address: string, cidr: string) => {
    const [network = '', length = ''] = cidr.split('/');
    const a = addressOf(address);
    const n = addressOf(network);
    if (a.bits !== n.bits) return false;
    const shift = BigInt(a.bits - Number(length));
    return a.value >> shift === n.value >> shift;
  };
  /** Whether a policy's egress lets a pod send to this address and port (operator placeholders admit nothing). */
  const admits = (policy: K8sObject, address: string, port: number) =>
    (policy.spec.egress as K8sObject[]).some((rule) => {
      const ports = (rule.ports ?? []) as K8sObject[];
      if (ports.length > 0 && !ports.some((p) => p.port === port)) return false;
      if (!rule.to) return true;
      return (rule.to as K8sObject[]).some((peer) => {
        const block = peer.ipBlock as { cidr: string; except?: string[] } | undefined;
        if (!block || /REPLACE_ME/.test(block.cidr)) return false;
        return within(address, block.cidr) && !(block.except ?? []).some((e) => within(address, e));
      });
    });
  const METADATA = ['169.254.169.254', 'fd00:ec2::254'];
  const PRIVATE = ['10.1.2.3', '172.16.0.9', '192.168.1.1', '127.0.0.1', '100.64.0.1', 'fe80::1', '::1', 'fd12::1'];
  const PUBLIC = ['93.184.215.14', '2606:4700::6810:84e5'];

  it('when the API pod is rendered, then it may send only to DNS, PostgreSQL, Redis and its banks, and never to the metadata service', () => {
    const policy = find(production(), 'NetworkPolicy', 'payout-gateway-api');
    expect(policy.spec.policyTypes).toEqual(['Ingress', 'Egress']);
    const env = apiEnv();
    const banks = loadConfig(apiConfigSchema, env).banks;
    const allowed = egressPorts(policy).flat();
    expect(new Set(allowed)).toEqual(
      new Set([
        'UDP/53',
        'TCP/53',
        `TCP/${portOf(env.DATABASE_URL!)}`,
        `TCP/${portOf(env.REDIS_URL!)}`,
        ...banks.map((b) => `TCP/${portOf(b.baseUrl)}`),
      ]),
    );
    // Every rule names where it may send: a rule without `to` admits every address on its ports.
    for (const rule of policy.spec.egress as K8sObject[]) expect(rule.to?.length).toBeGreaterThan(0);
    for (const port of [53, 80, 443, 5432, 6379]) {
      for (const address of METADATA) expect(admits(policy, address, port), `${address}:${port}`).toBe(false);
    }
    // The API never calls a webhook: nothing on the internet but the banks' own ranges.
    for (const address of PUBLIC) expect(admits(policy, address, 443), address).toBe(false);
    const development = render('overlays/development');
    const devEnv = environmentOf(development, container(development, 'Deployment', 'payout-gateway-api'));
    for (const name of ['payout-gateway-api', 'payout-gateway-worker']) {
      const rail = (find(development, 'NetworkPolicy', name).spec.egress as K8sObject[]).find((rule) =>
        (rule.ports as K8sObject[]).some((p) => p.port === portOf(devEnv.RAIL_BASE_URL!)),
      );
      // The simulator's pods, not every address on its port.
      expect(rail, name).toBeDefined();
      expect(rail?.to, name).toEqual([
        {
          podSelector: {
            matchLabels: { 'app.kubernetes.io/name': 'payout-gateway', 'app.kubernetes.io/component': 'rail-sim' },
          },
        },
      ]);
    }
  });

  it('when the worker pod is rendered, then it may send to DNS, PostgreSQL, Redis, its banks and public webhook endpoints, never a private range or the metadata service', () => {
    const policy = find(production(), 'NetworkPolicy', 'payout-gateway-worker');
    expect(policy.spec.policyTypes).toEqual(['Ingress', 'Egress']);
    const env = environmentOf(
      production(),
      container(production(), 'Deployment', 'payout-gateway-worker'),
      OPERATOR_SECRET,
    );
    expect(new Set(egressPorts(policy).flat())).toEqual(
      new Set(['UDP/53', 'TCP/53', `TCP/${portOf(env.DATABASE_URL!)}`, `TCP/${portOf(env.REDIS_URL!)}`, 'TCP/443']),
    );
    for (const rule of policy.spec.egress as K8sObject[]) expect(rule.to?.length).toBeGreaterThan(0);
    // docs/webhooks.md, "Where a webhook may point": any public address on 443, nothing private.
    for (const address of PUBLIC) expect(admits(policy, address, 443), address).toBe(true);
    for (const address of [...PRIVATE, ...METADATA]) expect(admits(policy, address, 443), address).toBe(false);
    for (const port of [53, 80, 5432, 6379]) {
      for (const address of METADATA) expect(admits(policy, address, port), `${address}:${port}`).toBe(false);
    }
    // The pods that only read the database reach nothing on the internet.
    for (const name of ['payout-gateway-migrate', 'payout-gateway-ops', 'payout-gateway-statement']) {
      const other = find(production(), 'NetworkPolicy', name);
      expect(other.spec.policyTypes, name).toEqual(['Ingress', 'Egress']);
      expect(other.spec.ingress, name).toBeUndefined();
      for (const address of [...PUBLIC, ...METADATA])
        expect(admits(other, address, 443), `${name} ${address}`).toBe(false);
    }
  });

  it('when the production API is rendered, then it trusts the one proxy in front of the admin listener and leaves each bank’s endpoint and settlement account for the operator to fill', () => {
    const config = loadConfig(apiConfigSchema, apiEnv());
    expect(config.ADMIN_TRUST_PROXY).toBe('1');
    // Placeholders no endpoint or account number matches, and deploy/release.sh refuses while one is left
    // (test/deploy/release-and-monitoring.test.ts): the overlay cannot be applied unfilled.
    for (const bank of config.banks) {
      expect(bank.baseUrl, bank.name).toContain('REPLACE_ME');
      expect(bank.settlementAccount, bank.name).toMatch(/^REPLACE_ME-/);
    }
    const bankRules = (name: string) =>
      (find(production(), 'NetworkPolicy', name).spec.egress as K8sObject[]).filter((rule) =>
        (rule.to as K8sObject[]).some((peer) => /REPLACE_ME/.test(peer.ipBlock?.cidr ?? '')),
      );
    for (const name of ['payout-gateway-api', 'payout-gateway-worker']) {
      const [rule, ...more] = bankRules(name);
      expect(more, name).toEqual([]);
      expect((rule!.to as K8sObject[]).length, name).toBe(config.banks.length);
      expect(rule!.ports, name).toEqual([{ port: 443, protocol: 'TCP' }]);
    }
  });

  describe('behind the ingress controller', () => {
    const api = useApi(() => ({ ADMIN_TRUST_PROXY: apiEnv().ADMIN_TRUST_PROXY! }));

    it('when the console is reached through one TLS proxy, then the rendered setting gives it the __Host- cookie', async () => {
      const form = await fetch(`${api.current.adminUrl}/console/login`, {
        headers: { 'X-Forwarded-Proto': 'https', 'X-Forwarded-For': '198.51.100.7' },
      });
      const cookies = form.headers.getSetCookie();
      expect(
        cookies.some((c) => c.startsWith('__Host-console_signin=') && /;\s*Secure/i.test(c)),
        cookies.join(),
      ).toBe(true);
    });
  });
});

describe('probes and autoscaling against a running API and worker', () => {
  const stack = useStack();
  const production = () => render('overlays/production');
  let metricName: string;
  beforeAll(async () => {
    metricName = (await createMetrics('manifest-test').queueJobs.get()).name;
  });

  /**
   * Asks a probe's path as the kubelet does: again every so often until it answers 200, for as long as the
   * probe's own failure budget (period × failure threshold) allows. A fresh API's first /readyz can miss its
   * 1 s deadline while Prisma's query compiler loads on a busy machine; the kubelet asks again.
   */
  const kubeletAsks = (url: string, { periodSeconds = 10, failureThreshold = 3 }: K8sObject) =>
    eventually(
      async () => {
        const response = await fetch(url);
        return { status: response.status, body: await response.text() };
      },
      (answer) => answer.status === 200,
      { timeoutMs: periodSeconds * failureThreshold * 1000, intervalMs: 100, what: `${url} to answer 200` },
    );

  it("when the API's probes are rendered, then they ask its merchant port's real health paths", async () => {
    const objects = production();
    const api = container(objects, 'Deployment', 'payout-gateway-api');
    const port = Number(environmentOf(objects, api, OPERATOR_SECRET).PORT);
    for (const probe of [api.startupProbe, api.livenessProbe, api.readinessProbe] as K8sObject[]) {
      expect(portNumber(api, probe.httpGet.port)).toBe(port);
      expect((await kubeletAsks(`${stack.current.api.url}${probe.httpGet.path}`, probe)).status).toBe(200);
    }
    expect([api.livenessProbe.httpGet.path, api.readinessProbe.httpGet.path]).toEqual(['/healthz', '/readyz']);
  }, 60_000);

  it('when a running API is scraped on its metrics port, then it answers /metrics there and nothing else; the admin listener no longer serves it', async () => {
    const { api } = stack.current;
    const scrape = await fetch(`${api.metricsUrl}/metrics`);
    expect(scrape.status).toBe(200);
    expect(await scrape.text()).toContain('http_request_duration_seconds');
    for (const path of ['/console/login', '/admin/queues', '/healthz']) {
      expect((await fetch(`${api.metricsUrl}${path}`)).status, path).toBe(404);
    }
    expect((await fetch(`${api.adminUrl}/metrics`)).status).toBe(404);
  });

  it("when the worker's probes are rendered, then they ask its HEALTH_PORT's real health paths", async () => {
    const objects = production();
    const worker = container(objects, 'Deployment', 'payout-gateway-worker');
    const port = Number(environmentOf(objects, worker, OPERATOR_SECRET).HEALTH_PORT);
    for (const probe of [worker.startupProbe, worker.livenessProbe, worker.readinessProbe] as K8sObject[]) {
      expect(portNumber(worker, probe.httpGet.port)).toBe(port);
      const url = `http://127.0.0.1:${stack.current.worker.healthPort}${probe.httpGet.path}`;
      expect((await kubeletAsks(url, probe)).status).toBe(200);
    }
    expect([worker.livenessProbe.httpGet.path, worker.readinessProbe.httpGet.path]).toEqual(['/healthz', '/readyz']);
  }, 60_000);

  it('when either autoscaler is rendered, then it alone scales the worker Deployment, within the same bounds', () => {
    const keda = render('overlays/production');
    const cpu = render('overlays/production-cpu-autoscaling');
    const scaled = find(keda, 'ScaledObject', 'payout-gateway-worker');
    const hpa = find(cpu, 'HorizontalPodAutoscaler', 'payout-gateway-worker');
    expect(scaled.spec.scaleTargetRef).toMatchObject({ kind: 'Deployment', name: 'payout-gateway-worker' });
    expect(hpa.spec.scaleTargetRef).toMatchObject({ kind: 'Deployment', name: 'payout-gateway-worker' });
    for (const objects of [keda, cpu]) {
      find(objects, 'Deployment', 'payout-gateway-worker');
      const autoscalers = objects.filter((o) => o.kind === 'ScaledObject' || o.kind === 'HorizontalPodAutoscaler');
      expect(autoscalers).toHaveLength(1);
      // The autoscaler owns the count: a replicas field would reset it on every apply.
      expect(find(objects, 'Deployment', 'payout-gateway-worker').spec.replicas).toBeUndefined();
    }
    for (const objects of [render('base'), render('overlays/development')]) {
      expect(objects.filter((o) => o.kind === 'ScaledObject' || o.kind === 'HorizontalPodAutoscaler')).toEqual([]);
    }
    expect([hpa.spec.minReplicas, hpa.spec.maxReplicas]).toEqual([
      scaled.spec.minReplicaCount,
      scaled.spec.maxReplicaCount,
    ]);
    expect(scaled.spec.minReplicaCount).toBeGreaterThanOrEqual(1);
  });

  it('when the worker count is at its maximum, then the rail limit is what stops more from helping', () => {
    // docs/scaling.md, "Autoscaling the workers": at the reference rail latency one worker settles
    // WORKER_CONCURRENCY ÷ latency per second; the maximum is the count whose total reaches RAIL_MAX_TPS.
    const REFERENCE_RAIL_LATENCY_S = 0.2;
    const objects = production();
    const env = environmentOf(objects, container(objects, 'Deployment', 'payout-gateway-worker'), OPERATOR_SECRET);
    const config = loadConfig(workerConfigSchema, env);
    const perWorker = config.WORKER_CONCURRENCY / REFERENCE_RAIL_LATENCY_S;
    const scaled = find(objects, 'ScaledObject', 'payout-gateway-worker');
    expect(scaled.spec.maxReplicaCount).toBe(Math.ceil(config.RAIL_MAX_TPS / perWorker));
    // The threshold is one second of one worker's work waiting.
    expect(Number(scaled.spec.triggers[0].metadata.threshold)).toBe(perWorker);
  });

  it("when payouts wait in a real worker's queue, then the ScaledObject's query counts them and not the delayed ones", async () => {
    const scaled = find(production(), 'ScaledObject', 'payout-gateway-worker');
    const [trigger] = scaled.spec.triggers as { type: string; metadata: Record<string, string> }[];
    expect(trigger?.type).toBe('prometheus');
    const query = trigger?.metadata.query ?? '';
    const selector = new RegExp(`\\b${metricName}\\{([^}]*)\\}`).exec(query);
    expect(selector, `${query} reads ${metricName}`).not.toBeNull();
    const matchers = [...selector![1]!.matchAll(/(\w+)\s*(=~|=)\s*"([^"]*)"/g)].map(([, label, op, value]) => ({
      label: label!,
      test: (actual: string | undefined) =>
        actual !== undefined && (op === '=' ? actual === value : new RegExp(`^(?:${value})$`).test(actual)),
    }));
    expect(matchers.find((m) => m.label === 'queue')?.test(PAYOUT_QUEUE)).toBe(true);

    // Nothing is taken from the queue while it fills: the worker stops fetching, the queue stays unpaused.
    const { worker } = stack.current;
    await worker.worker.pause();
    const job = { payoutId: '0' };
    await worker.queue.addBulk(
      [1, 2, 3].map((n) => ({ name: 'execute-payout', data: job, opts: { jobId: `waiting-${n}` } })),
    );
    await worker.queue.add('execute-payout', job, { jobId: 'prioritized-1', priority: 1 });
    await worker.queue.add('inquire-payout', job, { jobId: 'delayed-1', delay: 3_600_000 });

    const scrape = await (await fetch(`http://127.0.0.1:${worker.healthPort}/metrics`)).text();
    const series = scrape
      .split('\n')
      .filter((line) => line.startsWith(`${metricName}{`))
      .map((line) => {
        const [, labelText = '', value = ''] = /^[^{]+\{([^}]*)\}\s+(\S+)/.exec(line) ?? [];
        const labels = Object.fromEntries([...labelText.matchAll(/(\w+)="([^"]*)"/g)].map(([, k, v]) => [k!, v!]));
        return { labels, value: Number(value) };
      });
    // `namespace` is the target's label, which Prometheus's Kubernetes discovery adds at scrape.
    const counted = series.filter((s) => matchers.every((m) => m.label === 'namespace' || m.test(s.labels[m.label])));
    expect(counted.reduce((sum, s) => sum + s.value, 0)).toBe(4);
    const delayed = series.find((s) => s.labels.queue === PAYOUT_QUEUE && s.labels.state === 'delayed');
    expect(delayed?.value).toBe(1);
  });
});
