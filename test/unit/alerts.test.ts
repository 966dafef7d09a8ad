/**
 * `docs/alerts.yml` is a well-formed Prometheus rules file: every rule has a name, a PromQL
 * expression that parses with Prometheus's grammar, a `for` duration, a severity and a summary.
 * (That the metrics it names exist is checked against a real scrape in `e2e.ops.test.ts`.)
 */
import { describe, expect, it } from "vitest";
import { analysePromQl, loadAlertRules } from "../helpers/alertRules";

const rules = loadAlertRules("docs/alerts.yml");

describe("docs/alerts.yml", () => {
  it("holds the alerts the operations guide names", () => {
    const names = rules.map((r) => r.alert);
    expect(new Set(names).size).toBe(names.length);
    for (const name of ["IndexerLagging", "IndexerStalled", "IndexedBlockOld"]) expect(names).toContain(name);
    expect(rules.length).toBeGreaterThanOrEqual(6);
  });

  it.each(rules.map((r) => [r.alert, r] as const))("%s is a valid rule with a PromQL expression", (_name, rule) => {
    expect(rule.expr.trim().length).toBeGreaterThan(0);
    const { errors, metrics } = analysePromQl(rule.expr);
    expect(errors).toEqual([]);
    expect(metrics.length).toBeGreaterThan(0);
    expect(rule.for).toMatch(/^\d+[smh]$/);
    expect(["warning", "critical"]).toContain(rule.labels?.severity);
    expect(rule.annotations?.summary).toBeTruthy();
  });

  it("pages on the service's stall status (launchpad_indexer_status), and every rule names only launchpad_* or ponder_* families", () => {
    const stalled = rules.find((r) => r.alert === "IndexerStalled")!;
    expect(analysePromQl(stalled.expr).metrics).toEqual(["launchpad_indexer_status"]);
    expect(stalled.expr).toContain('status="stalled"');
    expect(stalled.labels?.severity).toBe("critical");
    for (const rule of rules)
      for (const metric of analysePromQl(rule.expr).metrics) expect(metric, rule.alert).toMatch(/^(launchpad|ponder)_/);
  });

  it("the grammar check rejects a broken expression and names the metrics of a good one", () => {
    expect(analysePromQl("sum(rate(launchpad_http_requests_total[5m]) >").errors.length).toBeGreaterThan(0);
    expect(
      analysePromQl('rate(launchpad_http_requests_total{status=~"5.."}[5m]) / on() group_left').errors.length,
    ).toBeGreaterThan(0);
    expect(
      analysePromQl(
        "histogram_quantile(0.99, sum by (le) (rate(launchpad_http_request_duration_seconds_bucket[5m]))) > 1",
      ).metrics,
    ).toEqual(["launchpad_http_request_duration_seconds"]);
  });
});
