import { execFileSync, spawnSync } from 'node:child_process';
import {
  chmodSync,
  cpSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { parse, parseAllDocuments } from 'yaml';
import { loadConfig, workerConfigSchema, apiConfigSchema } from '@payout/config';

// What makes the manifests work when applied (docs/operations.md, "Deploying on Kubernetes"): the release
// order — deploy/release.sh and Argo CD's sync waves —, the namespace's Pod Security profile, one way for
// Prometheus to find each process, the rules and dashboard the cluster gets, and the PostgreSQL connection
// budget of docs/scaling.md.

const repo = fileURLToPath(new URL('../../', import.meta.url));
type K8sObject = { apiVersion: string; kind: string; metadata: Record<string, any> } & Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- rendered YAML, read field by field

const rendered = new Map<string, K8sObject[]>();
function render(dir: string): K8sObject[] {
  const cached = rendered.get(dir);
  if (cached) return cached;
  const text = execFileSync('kubectl', ['kustomize', `deploy/kubernetes/${dir}`], { cwd: repo, encoding: 'utf8' });
  const objects = parseAllDocuments(text).map((d) => d.toJSON() as K8sObject);
  rendered.set(dir, objects);
  return objects;
}
const RELEASED = [
  'overlays/production',
  'overlays/production-cpu-autoscaling',
  'overlays/development',
  'overlays/development-prometheus-operator',
];
const named = (objects: K8sObject[], kind: string, name: string) => {
  const found = objects.find((o) => o.kind === kind && o.metadata.name === name);
  if (!found) throw new Error(`no ${kind} ${name}`);
  return found;
};
const wave = (o: K8sObject) => Number(o.metadata.annotations?.['argocd.argoproj.io/sync-wave'] ?? 0);
const step = (o: K8sObject) => o.metadata.labels?.['payout-gateway/release-step'] as string | undefined;
const pods = (objects: K8sObject[]) => objects.filter((o) => o.kind === 'Deployment' || o.kind === 'Job');

describe('the release order', () => {
  it.each(RELEASED)(
    'when %s is rendered, then Argo CD syncs the configuration, then the migration hook, then the apps',
    (dir) => {
      const objects = render(dir);
      const job = named(objects, 'Job', 'payout-gateway-migrate');
      // A Sync hook, not PreSync: PreSync runs before the wave that creates the ConfigMaps and the
      // ServiceAccount it reads.
      expect(job.metadata.annotations['argocd.argoproj.io/hook']).toBe('Sync');
      expect(job.metadata.annotations['argocd.argoproj.io/hook-delete-policy']).toBe('BeforeHookCreation');
      const pod = job.spec.template.spec;
      const needs = [
        named(objects, 'ServiceAccount', pod.serviceAccountName),
        ...pod.containers.flatMap((c: K8sObject) => [
          ...(c.envFrom ?? []).map((e: K8sObject) => named(objects, 'ConfigMap', e.configMapRef.name)),
          ...(c.env ?? [])
            .map((e: K8sObject) => e.valueFrom?.secretKeyRef?.name)
            .filter(Boolean)
            .flatMap((name: string) => objects.filter((o) => o.kind === 'Secret' && o.metadata.name === name)),
        ]),
      ];
      expect(needs.length).toBeGreaterThanOrEqual(2);
      for (const need of needs) expect(wave(need), `${need.kind} ${need.metadata.name}`).toBeLessThan(wave(job));
      const namespace = named(objects, 'Namespace', objects.find((o) => o.metadata.namespace)!.metadata.namespace);
      expect(wave(namespace)).toBeLessThan(Math.min(...needs.map(wave)));
      for (const app of objects.filter((o) => o.kind === 'Deployment')) {
        expect(wave(app), app.metadata.name).toBeGreaterThan(wave(job));
      }
      // deploy/release.sh's steps select the same sets by label.
      expect(new Set(needs.map(step))).toEqual(new Set(['before-rollout']));
      expect(step(namespace)).toBe('before-rollout');
      expect(objects.filter((o) => step(o) === 'migrate')).toEqual([job]);
      for (const other of objects.filter((o) => step(o) === undefined)) {
        expect(wave(other), `${other.kind} ${other.metadata.name}`).toBeGreaterThanOrEqual(0);
      }
    },
  );

  it.each(RELEASED)(
    'when %s is rendered, then its namespace enforces Pod Security restricted and every pod meets it',
    (dir) => {
      const objects = render(dir);
      const namespaces = new Set(objects.map((o) => o.metadata.namespace).filter(Boolean));
      expect(namespaces.size).toBe(1);
      const namespace = named(objects, 'Namespace', [...namespaces][0]);
      for (const mode of ['enforce', 'audit', 'warn']) {
        expect(namespace.metadata.labels[`pod-security.kubernetes.io/${mode}`], mode).toBe('restricted');
      }
      // The restricted profile's checks (Kubernetes' "Pod Security Standards") as they apply to these pods.
      for (const owner of pods(objects)) {
        const pod = owner.spec.template.spec;
        expect(pod.hostNetwork ?? false).toBe(false);
        expect(pod.hostPID ?? false).toBe(false);
        expect(pod.securityContext.runAsNonRoot).toBe(true);
        expect(pod.securityContext.seccompProfile.type).toBe('RuntimeDefault');
        for (const volume of pod.volumes ?? []) {
          const type = Object.keys(volume).find((k) => k !== 'name');
          expect(['emptyDir', 'configMap', 'secret', 'projected', 'persistentVolumeClaim']).toContain(type);
        }
        for (const c of pod.containers as K8sObject[]) {
          expect(c.securityContext.allowPrivilegeEscalation, c.name).toBe(false);
          expect(c.securityContext.privileged ?? false, c.name).toBe(false);
          expect(c.securityContext.capabilities.drop, c.name).toEqual(['ALL']);
          expect(c.securityContext.capabilities.add ?? [], c.name).toEqual([]);
          for (const port of c.ports ?? []) expect(port.hostPort, c.name).toBeUndefined();
        }
      }
    },
  );

  describe('deploy/release.sh', () => {
    const dir = mkdtempSync(join(tmpdir(), 'release-'));
    afterAll(() => rmSync(dir, { recursive: true, force: true }));
    // A kubectl that renders with the real one and records the rest: the cluster's answers come from the
    // test (the Job's conditions, whether the Secret exists).
    const stub = join(dir, 'kubectl');
    writeFileSync(
      stub,
      `#!/usr/bin/env bash
printf '%s\\n' "$*" >> "$STUB_LOG"
case "$*" in
  kustomize*) exec kubectl "$@" ;;
  apply*) cp "$3" "$STUB_LOG.applied" ;;
  *"get job"*) printf '%s' "$STUB_JOB" ;;
  *"get secret"*) [ "$STUB_SECRET" = yes ] ;;
  *"logs job"*) echo "migration: an applied migration has changed" ;;
esac
`,
    );
    chmodSync(stub, 0o755);

    // deploy/kubernetes as an operator leaves it once the production overlay's values are filled in
    // (docs/operations.md, "Settings"): every `REPLACE_ME-…` given a value, every example host its own.
    const filled = join(dir, 'kubernetes');
    cpSync(`${repo}deploy/kubernetes`, filled, { recursive: true });
    const VALUES: Record<string, string> = {
      'REPLACE_ME-primary-bank-payout-api.invalid': 'payouts.first-sponsor-bank.in',
      'REPLACE_ME-secondary-bank-payout-api.invalid': 'api.second-sponsor-bank.in',
      'REPLACE_ME-primary-bank-settlement-account': '50200012345678',
      'REPLACE_ME-secondary-bank-settlement-account': '00991100223344',
      'REPLACE_ME-primary-bank-cidr': '198.51.100.0/28',
      'REPLACE_ME-secondary-bank-cidr': '203.0.113.64/27',
      'REPLACE_ME-a-shared-file-system-storage-class': 'efs-shared',
    };
    const fill = (path: string): void => {
      if (statSync(path).isDirectory()) {
        for (const entry of readdirSync(path)) fill(join(path, entry));
        return;
      }
      let text = readFileSync(path, 'utf8');
      for (const [placeholder, value] of Object.entries(VALUES)) text = text.replaceAll(placeholder, value);
      text = text.replace(/\b([a-z0-9-]+)\.example\.com\b/g, '$1.payments.internal');
      // Comments may name the convention; values may not keep it.
      const values = text
        .split('\n')
        .filter((line) => !/^\s*#/.test(line))
        .join('\n');
      const left = /REPLACE_ME[\w-]*/.exec(values);
      if (left) throw new Error(`${path} holds ${left[0]}, which this test does not fill`);
      writeFileSync(path, text);
    };
    fill(filled);
    const DIGEST = 'registry.payments.internal/payout-gateway@sha256:' + 'a'.repeat(64);

    let run = 0;
    const release = (
      env: { job: string; secret: boolean; overlay?: string; extra?: Record<string, string> },
      ...args: string[]
    ) => {
      const log = join(dir, `log-${++run}`);
      const overlay = env.overlay ?? relative(repo, join(filled, 'overlays/production'));
      const result = spawnSync('bash', ['deploy/release.sh', overlay, ...args], {
        cwd: repo,
        encoding: 'utf8',
        env: {
          ...process.env,
          KUBECTL: stub,
          STUB_LOG: log,
          STUB_JOB: env.job,
          STUB_SECRET: env.secret ? 'yes' : 'no',
          MIGRATION_TIMEOUT_SECONDS: '2',
          ...env.extra,
        },
      });
      // No log: kubectl was never called.
      const calls = existsSync(log) ? readFileSync(log, 'utf8').trim().split('\n') : [];
      return { ...result, calls, log };
    };
    const kinds = (calls: string[]) =>
      calls.map((c) => {
        if (c.startsWith('kustomize')) return 'render';
        if (c.startsWith('apply')) return `apply ${c.slice(c.indexOf('-l ') + 3)}`;
        return c
          .replace(/^-n payouts /, '')
          .split(' ')
          .slice(0, 2)
          .join(' ');
      });

    it('when the migration completes, then the configuration, the Job, and only then the rollout are applied, in that order', () => {
      const digest = DIGEST;
      const { status, calls, log, stdout, stderr } = release({ job: 'Complete ', secret: true }, digest);
      expect(status, stderr).toBe(0);
      expect(stdout).toContain(`image ${digest}`);
      expect(kinds(calls)).toEqual([
        'render',
        'apply payout-gateway/release-step=before-rollout',
        'get secret',
        'delete job',
        'apply payout-gateway/release-step=migrate',
        'get job',
        'apply payout-gateway/release-step notin (migrate)',
        'rollout status',
        'rollout status',
      ]);
      expect(calls.filter((c) => c.startsWith('-n payouts rollout status')).map((c) => c.split(' ')[4])).toEqual([
        'deployment/payout-gateway-api',
        'deployment/payout-gateway-worker',
      ]);
      // The image named on the command line is what every pod runs.
      const applied = parseAllDocuments(readFileSync(`${log}.applied`, 'utf8')).map((d) => d.toJSON() as K8sObject);
      const images = pods(applied).flatMap((o) => o.spec.template.spec.containers.map((c: K8sObject) => c.image));
      expect(new Set(images)).toEqual(new Set([digest]));
    });

    it('when the migration fails, then the release stops with its log and nothing rolls', () => {
      const { status, calls, stderr } = release({ job: 'Failed ', secret: true }, DIGEST);
      expect(status).toBe(1);
      expect(stderr).toMatch(/release stopped: the migration failed/);
      expect(stderr).toMatch(/an applied migration has changed/);
      expect(calls.some((c) => c.includes('notin (migrate)') || c.includes('rollout status'))).toBe(false);
    });

    it('when the migration does not finish in time, then the release stops and nothing rolls', () => {
      const { status, calls, stderr } = release({ job: '', secret: true }, DIGEST);
      expect(status).toBe(1);
      expect(stderr).toMatch(/did not finish within 2 s: nothing has rolled/);
      expect(calls.some((c) => c.includes('notin (migrate)') || c.includes('rollout status'))).toBe(false);
    });

    it("when the operator's Secret is missing, then the release stops before the Job", () => {
      const { status, calls, stderr } = release({ job: 'Complete ', secret: false }, DIGEST);
      expect(status).toBe(1);
      expect(stderr).toMatch(/no Secret payout-gateway-secrets in payouts/);
      expect(calls.some((c) => c.includes('job'))).toBe(false);
    });

    it('when the production overlay still holds its placeholders, then the release refuses it, naming each, before applying anything', () => {
      const { status, calls, stderr } = release(
        { job: 'Complete ', secret: true, overlay: 'deploy/kubernetes/overlays/production' },
        DIGEST,
      );
      expect(status).toBe(1);
      expect(stderr).toMatch(/release stopped: the rendering still holds placeholders/);
      for (const placeholder of [
        'REPLACE_ME-primary-bank-settlement-account',
        'REPLACE_ME-secondary-bank-cidr',
        'REPLACE_ME-a-shared-file-system-storage-class',
      ]) {
        expect(stderr).toContain(placeholder);
      }
      expect(kinds(calls)).toEqual(['render']);
    });

    it("when no image is given, then the overlay's placeholder image is refused", () => {
      const { status, calls, stderr } = release({ job: 'Complete ', secret: true });
      expect(status).toBe(1);
      expect(stderr).toMatch(/placeholders[\s\S]*image: registry\.payments\.internal\/payout-gateway:set-by-release/);
      expect(kinds(calls)).toEqual(['render']);
    });

    it('when the image is given by tag, then the release refuses it before rendering', () => {
      const { status, calls, stderr } = release(
        { job: 'Complete ', secret: true },
        'registry.payments.internal/payout-gateway:1.4.0',
      );
      expect(status).toBe(1);
      expect(stderr).toMatch(/the image must be pinned by digest/);
      expect(calls).toEqual([]);
    });

    it('when an overlay adds an object without a namespace, then the release refuses the rendering, naming it', () => {
      // An overlay over the filled production one that adds a component without saying `namespace:` again:
      // the autoscaler it brings has none.
      const overlay = join(dir, 'kubernetes/overlays/production-unnamespaced');
      cpSync(join(dir, 'kubernetes/overlays/production-cpu-autoscaling'), overlay, { recursive: true });
      const kustomization = join(overlay, 'kustomization.yaml');
      writeFileSync(kustomization, readFileSync(kustomization, 'utf8').replace(/^namespace: .*$/m, ''));
      const { status, calls, stderr } = release(
        { job: 'Complete ', secret: true, overlay: relative(repo, overlay) },
        DIGEST,
      );
      expect(status).toBe(1);
      expect(stderr).toMatch(/these objects have no namespace .*HorizontalPodAutoscaler\/payout-gateway-worker/);
      expect(kinds(calls)).toEqual(['render']);
    });

    it.each(['production-cpu-autoscaling', 'development'])(
      'when the %s overlay is released, then its rendering passes the namespace and placeholder checks',
      (name) => {
        const { status, stderr, stdout } = release(
          { job: 'Complete ', secret: true, overlay: relative(repo, join(filled, 'overlays', name)) },
          DIGEST,
        );
        expect(status, stderr).toBe(0);
        expect(stdout).toMatch(/namespace payouts/);
      },
    );

    it('when only a check is asked for, then the filled overlay is rendered and checked and nothing is applied', () => {
      const { status, calls, stdout, stderr } = release(
        { job: 'Complete ', secret: true, extra: { CHECK_ONLY: '1' } },
        DIGEST,
      );
      expect(status, stderr).toBe(0);
      expect(stdout).toMatch(/checked: nothing applied/);
      expect(kinds(calls)).toEqual(['render']);
    });

    it('when the release builds the image, then it releases the digest the registry answered, never a typed one', () => {
      // A docker that "pushes" and writes what buildx's metadata file holds after a push.
      const docker = join(dir, 'docker');
      const pushed = 'sha256:' + 'b'.repeat(64);
      writeFileSync(
        docker,
        `#!/usr/bin/env bash
printf '%s\\n' "$*" >> "$STUB_LOG.docker"
while [ "$#" -gt 0 ]; do
  if [ "$1" = --metadata-file ]; then printf '{"containerimage.digest": "${pushed}"}' > "$2"; fi
  shift
done
`,
      );
      chmodSync(docker, 0o755);
      const { status, stderr, stdout, log } = release({
        job: 'Complete ',
        secret: true,
        extra: { BUILD_IMAGE_REPOSITORY: 'registry.payments.internal/payout-gateway', DOCKER: docker },
      });
      expect(status, stderr).toBe(0);
      expect(readFileSync(`${log}.docker`, 'utf8')).toMatch(/^buildx build .*--push/);
      const image = `registry.payments.internal/payout-gateway@${pushed}`;
      expect(stdout).toContain(`image ${image}`);
      const applied = parseAllDocuments(readFileSync(`${log}.applied`, 'utf8')).map((d) => d.toJSON() as K8sObject);
      const images = pods(applied).flatMap((o) => o.spec.template.spec.containers.map((c: K8sObject) => c.image));
      expect(new Set(images)).toEqual(new Set([image]));
    });
  });
});

describe('deploy/ops.sh', () => {
  const dir = mkdtempSync(join(tmpdir(), 'ops-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  // A kubectl that answers as the cluster would: the Job `create job --from` makes of the rendered
  // CronJob, the pod's exit code; `patch --local` is the real kubectl's, which edits the Job offline.
  const cronJob = named(render('overlays/production'), 'CronJob', 'payout-gateway-ops');
  writeFileSync(
    join(dir, 'job.json'),
    JSON.stringify({
      apiVersion: 'batch/v1',
      kind: 'Job',
      metadata: { name: 'from-cronjob' },
      spec: cronJob.spec.jobTemplate.spec,
    }),
  );
  const stub = join(dir, 'kubectl');
  writeFileSync(
    stub,
    `#!/usr/bin/env bash
printf '%s\\n' "$*" >> "$STUB_LOG"
case "$*" in
  *"create job"*) cat "${join(dir, 'job.json')}" ;;
  patch*) exec kubectl "$@" ;;
  *"create -f -"*) cat > "$STUB_LOG.created" ;;
  *" wait "*) exit 0 ;;
  *"logs -f"*) echo "no-stuck-payouts: ok" ;;
  *"get pods"*) printf '%s' "$STUB_EXIT" ;;
esac
`,
  );
  chmodSync(stub, 0o755);

  it('when a command is run, then its words become the args of a Job made from the ops CronJob, its log is followed and its exit code is the script’s', () => {
    const log = join(dir, 'log');
    const words = ['payout', 'show', '--mid', 'M "1" \\ x', '--TransactionID', '7'];
    const result = spawnSync('bash', ['deploy/ops.sh', ...words], {
      cwd: repo,
      encoding: 'utf8',
      env: { ...process.env, KUBECTL: stub, STUB_LOG: log, STUB_EXIT: '1' },
    });
    expect(result.status, result.stderr).toBe(1);
    expect(result.stdout).toContain('no-stuck-payouts: ok');
    const created = JSON.parse(readFileSync(`${log}.created`, 'utf8')) as K8sObject;
    const [cli] = created.spec.template.spec.containers as K8sObject[];
    expect(cli!.command).toEqual(['payout-cli']);
    expect(cli!.args).toEqual(words);
    // The pod of the release, sized as the CronJob says, not a worker's.
    expect(cli!.resources).toEqual(cronJob.spec.jobTemplate.spec.template.spec.containers[0].resources);
    // The three kubectl of the pipeline start together, so their calls are logged in any order.
    const calls = readFileSync(log, 'utf8').trim().split('\n');
    expect(
      calls.filter((c) =>
        /^-n payouts create job payout-gateway-ops-\S+ --from=cronjob\/payout-gateway-ops --dry-run=client -o json$/.test(
          c,
        ),
      ),
    ).toHaveLength(1);
    expect(calls.some((c) => / exec /.test(c))).toBe(false);
  });
});

describe('monitoring wired', () => {
  const scrapeConfig = parse(readFileSync(`${repo}deploy/prometheus/prometheus.yml`, 'utf8')) as {
    scrape_configs: { job_name: string }[];
  };
  const jobNames = scrapeConfig.scrape_configs.map((c) => c.job_name);
  // Each scraped process: its Deployment, the port its /metrics is on, and its job name.
  const TARGETS = [
    // The API's metrics listener (METRICS_PORT), never its admin listener.
    { deployment: 'payout-gateway-api', port: 'metrics', job: 'payout-api' },
    { deployment: 'payout-gateway-worker', port: 'health', job: 'payout-worker' },
    { deployment: 'rail-sim', port: 'rail', job: 'rail-sim' },
  ];

  it.each(RELEASED)(
    'when %s is rendered, then Prometheus finds each process one way only, under its job name',
    (dir) => {
      const objects = render(dir);
      const podMonitors = objects.filter((o) => o.kind === 'PodMonitor');
      const services = objects.filter((o) => o.kind === 'Service');
      for (const target of TARGETS) {
        const deployment = objects.find((o) => o.kind === 'Deployment' && o.metadata.name === target.deployment);
        if (!deployment) continue;
        const template = deployment.spec.template;
        const selects = (selector: Record<string, string>) =>
          Object.entries(selector).every(([k, v]) => template.metadata.labels[k] === v);
        const monitors = podMonitors.filter((m) => selects(m.spec.selector.matchLabels));
        const annotated = template.metadata.annotations?.['prometheus.io/scrape'] === 'true' ? 1 : 0;
        // No ServiceMonitor path either: no Service is there for metrics alone.
        expect(services.filter((s) => s.metadata.name.endsWith('-metrics'))).toEqual([]);
        expect(monitors.length + annotated, `${dir}: ${target.deployment}`).toBe(1);
        expect(jobNames).toContain(target.job);
        const [container] = template.spec.containers as K8sObject[];
        const port = (container!.ports as K8sObject[]).find((p) => p.name === target.port);
        expect(port, `${target.deployment} port ${target.port}`).toBeDefined();
        if (annotated) {
          expect(template.metadata.annotations['prometheus.io/port']).toBe(String(port!.containerPort));
          expect(template.metadata.annotations['prometheus.io/job']).toBe(target.job);
        } else {
          const [endpoint, ...more] = monitors[0]!.spec.podMetricsEndpoints as K8sObject[];
          expect(more).toEqual([]);
          expect(endpoint!.port).toBe(target.port);
          expect(endpoint!.path).toBe('/metrics');
          expect(endpoint!.relabelings).toContainEqual({ targetLabel: 'job', replacement: target.job });
        }
      }
    },
  );

  it('when production is rendered, then KEDA reads the Prometheus the PodMonitors feed, within its namespace', () => {
    const objects = render('overlays/production');
    const [trigger] = named(objects, 'ScaledObject', 'payout-gateway-worker').spec.triggers as K8sObject[];
    expect(trigger!.metadata.serverAddress).toMatch(/^http:\/\/prometheus-operated\.monitoring\.svc:9090$/);
    expect(trigger!.metadata.query).toMatch(/namespace="payouts"/);
    expect(objects.filter((o) => o.kind === 'PodMonitor').map((m) => m.metadata.name)).toContain(
      'payout-gateway-worker',
    );
  });

  it('when production is rendered, then its PrometheusRule is deploy/prometheus/alerts.yml and its dashboard deploy/grafana', () => {
    const objects = render('overlays/production');
    const alerts = parse(readFileSync(`${repo}deploy/prometheus/alerts.yml`, 'utf8')) as { groups: unknown[] };
    const rule = named(objects, 'PrometheusRule', 'payout-gateway');
    expect(rule.spec.groups, 'run node deploy/kubernetes/render-monitoring.mjs').toEqual(alerts.groups);
    const dashboard = named(objects, 'ConfigMap', 'payout-gateway-dashboard');
    expect(dashboard.metadata.labels.grafana_dashboard).toBe('1');
    expect(
      JSON.parse(dashboard.data['payout-gateway-dashboard.json']),
      'run node deploy/kubernetes/render-monitoring.mjs',
    ).toEqual(JSON.parse(readFileSync(`${repo}deploy/grafana/payout-gateway.json`, 'utf8')));
  });

  it('when the alert routing example is read, then critical alerts page, warnings open tickets, and only a whole outage silences what follows from it, never an alert about money; no overlay applies it', () => {
    // An example the operator fills with real receivers and applies (deploy/kubernetes/examples): no
    // rendering carries it, nor the pager's Secret, so nothing is released with its example receivers.
    for (const dir of RELEASED) {
      const objects = render(dir);
      expect(
        objects.filter((o) => o.kind === 'AlertmanagerConfig'),
        dir,
      ).toEqual([]);
      expect(
        objects.filter((o) => o.kind === 'Secret' && o.metadata.name === 'payout-gateway-alerting'),
        dir,
      ).toEqual([]);
    }
    const example = parse(
      readFileSync(`${repo}deploy/kubernetes/examples/alertmanager-config.yaml`, 'utf8'),
    ) as K8sObject;
    expect(example.kind).toBe('AlertmanagerConfig');
    const config = example.spec;
    const routeFor = (severity: string) =>
      (config.route.routes as K8sObject[]).find((r) =>
        r.matchers.some((m: K8sObject) => m.name === 'severity' && m.value === severity),
      )?.receiver;
    expect(routeFor('critical')).toBe('pager');
    expect(routeFor('warning')).toBe('tickets');
    expect(config.receivers.map((r: K8sObject) => r.name).sort()).toEqual(['pager', 'tickets']);
    // The pager's key comes from a Secret the operator creates, which the runbook names.
    const pager = (config.receivers as K8sObject[]).find((r) => r.name === 'pager');
    expect(pager?.pagerdutyConfigs[0].routingKey).toEqual({ name: 'payout-gateway-alerting', key: 'routing-key' });
    expect(readFileSync(`${repo}docs/operations.md`, 'utf8')).toMatch(/payout-gateway-alerting[^\n]*routing-key/);

    // Each inhibit rule read as the alert names of deploy/prometheus/alerts.yml it silences and is silenced by.
    const alertNames = (
      parse(readFileSync(`${repo}deploy/prometheus/alerts.yml`, 'utf8')) as {
        groups: { rules: { alert?: string }[] }[];
      }
    ).groups.flatMap((group) => group.rules.flatMap((rule) => (rule.alert ? [rule.alert] : [])));
    const namedBy = (matchers: K8sObject[]) => {
      const matcher = matchers.find((m) => m.name === 'alertname');
      if (!matcher) return undefined;
      const pattern = new RegExp(`^(?:${matcher.value})$`);
      return alertNames.filter((alert) => pattern.test(alert) === (matcher.matchType as string).startsWith('='));
    };
    const rules = (config.inhibitRules as K8sObject[]).map((rule) => ({
      equal: rule.equal as string[],
      sources: namedBy(rule.sourceMatch),
      targets: namedBy(rule.targetMatch),
    }));
    // Every alert name the example spells is one of alerts.yml's: a misspelt one would silence nothing.
    const spelt = (config.inhibitRules as K8sObject[]).flatMap((rule) =>
      [...rule.sourceMatch, ...rule.targetMatch]
        .filter((m: K8sObject) => m.name === 'alertname')
        .flatMap((m: K8sObject) => (m.value as string).split('|')),
    );
    expect(alertNames).toEqual(expect.arrayContaining(spelt));

    // One instance down silences nothing; a whole job down, Redis or PostgreSQL away silence what follows
    // from them in their own namespace.
    expect(rules.filter(({ sources }) => sources?.includes('ProcessDown'))).toEqual([]);
    const outage = rules.find(({ sources }) => sources?.includes('JobDown') && sources.includes('PostgresDown'));
    expect(outage?.sources?.sort()).toEqual(['JobDown', 'PostgresDown', 'RedisDown']);
    expect(outage?.equal).toEqual(['namespace']);
    for (const knockOn of ['PayoutQueueGrowing', 'PayoutTimelinessBudgetBurn', 'MerchantApiErrorBudgetBurn'])
      expect(outage?.targets, knockOn).toContain(knockOn);
    // No rule silences an alert about money, whatever fires beside it (a critical alert's own warning aside,
    // which names no alert).
    for (const { targets } of rules)
      for (const money of [
        'ReconcileBreaches',
        'StatementBreaksOpen',
        'OpenDiscrepancies',
        'ManualReviewBacklog',
        'BreakGlassUsed',
        'WebhookEndpointDisabled',
        'AllBanksDownForMode',
      ])
        expect(targets ?? [], money).not.toContain(money);
    // A bank outage pages once: every bank out of routing silences the rail's errors, each elimination and
    // the count-based page of the same outage.
    const allBanksDown = rules.find(({ sources }) => sources?.join() === 'AllBanksDownForMode');
    expect(allBanksDown?.equal).toEqual(['namespace']);
    expect(allBanksDown?.targets?.sort()).toEqual(['AllBanksFailing', 'BankEliminated', 'RailErrorRate']);
  });
});

describe('the PostgreSQL connection budget', () => {
  it('when the most pods run at once (KEDA at its maximum, both Deployments surging), then the connections docs/scaling.md states fit', () => {
    const objects = render('overlays/production');
    const data = (name: string) =>
      objects.find((o) => o.kind === 'ConfigMap' && o.metadata.name.startsWith(`${name}-`))!.data as Record<
        string,
        string
      >;
    const env = (app: string) => ({ ...data('payout-gateway-common'), ...data(`payout-gateway-${app}`) });
    const secret = { DATABASE_URL: 'postgresql://u:p@primary:5432/payouts', REDIS_URL: 'redis://redis:6379' };
    const apiPool = loadConfig(apiConfigSchema, {
      ...env('api'),
      ...secret,
      ADMIN_TOKEN: 'x'.repeat(40),
      PAYIN_CALLBACK_SECRET: 'y'.repeat(40),
      SECOND_FACTOR_KEY: '7a'.repeat(32),
    }).DATABASE_POOL_SIZE;
    const workerPool = loadConfig(workerConfigSchema, { ...env('worker'), ...secret }).DATABASE_POOL_SIZE;
    const surge = (name: string) => named(objects, 'Deployment', name).spec.strategy.rollingUpdate.maxSurge as number;
    const apiPods =
      (named(objects, 'Deployment', 'payout-gateway-api').spec.replicas as number) + surge('payout-gateway-api');
    const workerPods =
      (named(objects, 'ScaledObject', 'payout-gateway-worker').spec.maxReplicaCount as number) +
      surge('payout-gateway-worker');
    // An operator command (deploy/ops.sh, its own pod with the common settings) opens a pool of the same
    // size; each bank's statement CronJob its own small one, all at once at the same hour; the migration
    // Job runs before the rollout, never beside a surge, and holds one.
    const statementPools = objects
      .filter((o) => o.kind === 'CronJob' && o.metadata.name.startsWith('payout-gateway-statement-'))
      .map((o) => {
        const [c] = o.spec.jobTemplate.spec.template.spec.containers as K8sObject[];
        return Number((c!.env as K8sObject[]).find((e) => e.name === 'DATABASE_POOL_SIZE')?.value);
      });
    expect(statementPools).toHaveLength(2);
    const total = apiPods * apiPool + workerPods * workerPool + apiPool + statementPools.reduce((a, b) => a + b, 0);

    const doc = readFileSync(`${repo}docs/scaling.md`, 'utf8');
    const section = doc.slice(doc.indexOf('### PostgreSQL connections'));
    expect(section.length).toBeGreaterThan(0);
    const stated = /at most \*\*(\d+) connections\*\*/.exec(section);
    const required = /`max_connections` of at least \*\*(\d+)\*\*/.exec(section);
    expect(Number(stated?.[1]), 'the total docs/scaling.md states').toBe(total);
    // PostgreSQL keeps superuser_reserved_connections (3) out of the apps' reach.
    expect(Number(required?.[1]) - 3).toBeGreaterThanOrEqual(total);
  });
});
