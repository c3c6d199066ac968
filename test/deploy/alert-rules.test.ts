import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';

// The alert rules of deploy/prometheus/alerts.yml, read as a reviewer would (docs/operations.md, "Alerts:
// what each means and what to do"): every selector names its job and every aggregation keeps `namespace`,
// so one Prometheus watching several namespaces and other teams' targets pages only for the right one;
// every alert's runbook_url is a heading of docs/operations.md; every alert is shown firing and quiet by
// alerts.test.yml.

const ROOT = new URL('../../', import.meta.url);

interface Rule {
  alert?: string;
  record?: string;
  expr: string;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
}

const rules = (
  parse(readFileSync(new URL('deploy/prometheus/alerts.yml', ROOT), 'utf8')) as { groups: { rules: Rule[] }[] }
).groups.flatMap((group) => group.rules);
const alerts = rules.filter((rule) => rule.alert !== undefined);
const recorded = new Set(rules.flatMap((rule) => (rule.record ? [rule.record] : [])));

const operationsDoc = readFileSync(new URL('docs/operations.md', ROOT), 'utf8');

const dashboard = JSON.parse(readFileSync(new URL('deploy/grafana/payout-gateway.json', ROOT), 'utf8')) as {
  panels: { title: string; targets?: { expr: string }[] }[];
  templating: { list: { name: string }[] };
};

interface Selector {
  text: string;
  name: string;
  matchers: string;
}

const PROMQL_WORDS = new Set(['and', 'or', 'unless', 'bool', 'offset', 'by', 'without', 'on', 'ignoring']);
const AGGREGATIONS = 'sum|min|max|avg|count|stddev|stdvar|topk|bottomk|quantile|count_values|group';

/** The series selectors of an expression: `name{…}`, `{…}` or a bare name that is not a function or a word. */
function selectorsIn(expr: string): Selector[] {
  const bare = expr
    .replace(/\b(?:by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)/g, ' ')
    .replace(/\[[^\]]*\]/g, ' ')
    .replace(/\boffset\s+[0-9smhdwy]+/g, ' ');
  const pattern = /([a-zA-Z_:][a-zA-Z0-9_:]*)?\s*\{([^}]*)\}|"(?:[^"\\]|\\.)*"|([a-zA-Z_:][a-zA-Z0-9_:]*)(\s*\()?/g;
  const found: Selector[] = [];
  for (const [text, name, matchers, word, call] of bare.matchAll(pattern)) {
    if (matchers !== undefined) found.push({ text, name: name ?? '', matchers });
    else if (word !== undefined && call === undefined && !PROMQL_WORDS.has(word.toLowerCase()))
      found.push({ text, name: word, matchers: '' });
  }
  return found;
}

/** Each aggregation of an expression with the labels it keeps (`null`: it keeps none, or names them by `without`). */
function aggregationsIn(expr: string): { text: string; by: string[] | null }[] {
  const pattern = new RegExp(`\\b(${AGGREGATIONS})\\s*(by\\s*\\(([^)]*)\\))?\\s*\\(`, 'g');
  return [...expr.matchAll(pattern)].map(([text, , , labels]) => ({
    text: text.trim(),
    by: labels === undefined ? null : labels.split(',').map((label) => label.trim()),
  }));
}

/** The labels of each `on (…)` vector matching. */
function matchingsIn(expr: string): string[][] {
  return [...expr.matchAll(/\bon\s*\(([^)]*)\)/g)].map(([, labels]) => labels!.split(',').map((l) => l.trim()));
}

/** KEDA's operator names a ScaledObject's namespace `exported_namespace`; a rule may keep that and rename it. */
const renamesExportedNamespace = (expr: string) =>
  /label_replace\([\s\S]*"namespace",\s*"\$1",\s*"exported_namespace"/.test(expr);

/** The scoping faults of one rule, each said as a reviewer would. */
function scopingFaults(rule: Rule): string[] {
  const name = rule.alert ?? rule.record!;
  const faults: string[] = [];
  for (const selector of selectorsIn(rule.expr)) {
    if (recorded.has(selector.name)) continue; // a recording rule of this file, itself scoped
    if (!/\bjob\s*=~?\s*"/.test(selector.matchers)) faults.push(`${name}: ${selector.text.trim()} names no job`);
  }
  for (const aggregation of aggregationsIn(rule.expr)) {
    const keeps = aggregation.by ?? [];
    const scoped =
      keeps.includes('namespace') || (keeps.includes('exported_namespace') && renamesExportedNamespace(rule.expr));
    if (!scoped) faults.push(`${name}: ${aggregation.text} drops the namespace`);
  }
  for (const labels of matchingsIn(rule.expr))
    if (!labels.includes('namespace')) faults.push(`${name}: on (${labels.join(', ')}) matches across namespaces`);
  return faults;
}

/** The anchor GitHub gives a Markdown heading: lower case, punctuation but `-` and `_` dropped, spaces to `-`. */
function anchorOf(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

function headingAnchors(markdown: string): Set<string> {
  const withoutCode = markdown.replace(/^```[\s\S]*?^```/gm, '');
  return new Set([...withoutCode.matchAll(/^#{1,6}\s+(.+)$/gm)].map(([, heading]) => anchorOf(heading!)));
}

interface RuleTest {
  alert_rule_test?: { alertname: string; exp_alerts?: unknown[] }[];
}

const ruleTests = (
  parse(readFileSync(new URL('deploy/prometheus/alerts.test.yml', ROOT), 'utf8')) as { tests: RuleTest[] }
).tests.flatMap((test) => test.alert_rule_test ?? []);

describe('the dashboard', () => {
  it('when every query is read, then each selector is scoped by the namespace variable and names its job', () => {
    expect(dashboard.templating.list.map((variable) => variable.name)).toContain('namespace');
    const queries = dashboard.panels.flatMap((panel) => (panel.targets ?? []).map((t) => ({ panel, expr: t.expr })));
    expect(queries.length).toBeGreaterThan(10);
    const faults = queries.flatMap(({ panel, expr }) =>
      selectorsIn(expr).flatMap((selector) => [
        ...(/\bnamespace\s*=\s*"\$namespace"/.test(selector.matchers)
          ? []
          : [`${panel.title}: ${selector.text.trim()} is not scoped by $namespace`]),
        ...(/\bjob\s*=~?\s*"/.test(selector.matchers) ? [] : [`${panel.title}: ${selector.text.trim()} names no job`]),
      ]),
    );
    expect(faults).toEqual([]);
  });
});

describe('the alert rules', () => {
  it('when an expression is read, then its selectors, aggregations and matchings are found', () => {
    const expr =
      'sum by (namespace) (rate(a_total{job="x",code=~"5.."}[5m])) / on (namespace) max(b) and c:rate5m > 0.1 or vector(0)';
    expect(selectorsIn(expr).map((s) => s.name)).toEqual(['a_total', 'b', 'c:rate5m']);
    expect(aggregationsIn(expr)).toEqual([
      { text: 'sum by (namespace) (', by: ['namespace'] },
      { text: 'max(', by: null },
    ]);
    expect(matchingsIn(expr)).toEqual([['namespace']]);
    expect(anchorOf('`PayoutsPendingPastSchedule`')).toBe('payoutspendingpastschedule');
    expect(anchorOf('Alerts: what each means and what to do')).toBe('alerts-what-each-means-and-what-to-do');
  });

  it('when a rule is unscoped, then the check says so', () => {
    expect(scopingFaults({ alert: 'Old', expr: 'up == 0' })).toEqual(['Old: up names no job']);
    expect(scopingFaults({ alert: 'Old', expr: 'max(statement_last_run_breaks{job="payout-worker"}) > 0' })).toEqual([
      'Old: max( drops the namespace',
    ]);
  });

  it('when every rule is read, then each selector names its job and each aggregation keeps the namespace', () => {
    expect(alerts.length).toBeGreaterThanOrEqual(20);
    expect(rules.flatMap(scopingFaults)).toEqual([]);
  });

  it('when every alert is read, then it has a severity, a summary, a description and a runbook_url to its own heading of docs/operations.md', () => {
    const anchors = headingAnchors(operationsDoc);
    const faults = alerts.flatMap((rule) => {
      const url = rule.annotations?.runbook_url ?? '';
      const anchor = /^docs\/operations\.md#(.+)$/.exec(url)?.[1];
      return [
        ...(['critical', 'warning'].includes(rule.labels?.severity ?? '') ? [] : [`${rule.alert}: no severity`]),
        ...(rule.annotations?.summary && rule.annotations.description
          ? []
          : [`${rule.alert}: no summary or description`]),
        ...(anchor === anchorOf(rule.alert!) ? [] : [`${rule.alert}: runbook_url ${url} is not its own section`]),
        ...(anchor !== undefined && anchors.has(anchor) ? [] : [`${rule.alert}: no heading for ${url}`]),
      ];
    });
    expect(faults).toEqual([]);
  });

  it('when a burn-rate alert is read, then each window it pages or tickets on also needs a floor of bad events', () => {
    // docs/operations.md, "Service level objectives" ("Event floors"): a ratio of a few events at night is
    // one event's noise. Each branch of the alert (split at `or`) counts its long window's bad events.
    const burns = alerts.filter((rule) => /BudgetBurn$|BudgetSlowBurn$/.test(rule.alert!));
    expect(burns.map((rule) => rule.alert).sort()).toEqual([
      'MerchantApiErrorBudgetBurn',
      'MerchantApiErrorBudgetSlowBurn',
      'PayoutTimelinessBudgetBurn',
      'PayoutTimelinessBudgetSlowBurn',
    ]);
    const seconds: Record<string, number> = { '1h': 3600, '6h': 21600, '3d': 259200 };
    const faults = burns.flatMap((rule) =>
      rule.expr.split(/\bor\b/).flatMap((branch) => {
        const long = /namespace:\w+:rate(1h|6h|3d) \/ /.exec(branch);
        const floor = /namespace:\w+:rate(1h|6h|3d) \* (\d+) >= (\d+)/.exec(branch);
        if (!long) return [`${rule.alert}: a branch without a long window`];
        if (!floor) return [`${rule.alert}: its ${long[1]} window has no floor`];
        return [
          ...(floor[1] === long[1] ? [] : [`${rule.alert}: the floor counts ${floor[1]}, the window is ${long[1]}`]),
          ...(Number(floor[2]) === seconds[long[1]!] ? [] : [`${rule.alert}: ${floor[2]} s is not ${long[1]}`]),
          ...(Number(floor[3]) >= 5 ? [] : [`${rule.alert}: a floor of ${floor[3]} is one event's noise`]),
        ];
      }),
    );
    expect(faults).toEqual([]);
  });

  it('when the unit tests are read, then every alert is shown firing and shown quiet', () => {
    const unshown = alerts.flatMap(({ alert }) => {
      const cases = ruleTests.filter((test) => test.alertname === alert);
      return [
        ...(cases.some((test) => (test.exp_alerts ?? []).length > 0) ? [] : [`${alert} never fires`]),
        ...(cases.some((test) => (test.exp_alerts ?? []).length === 0) ? [] : [`${alert} is never quiet`]),
      ];
    });
    expect(unshown).toEqual([]);
  });
});
