/**
 * Reads Prometheus alerting rules (the `rule_files` format) with a YAML parser and checks each
 * expression with Prometheus's own PromQL grammar (`@prometheus-io/lezer-promql`, the parser of
 * the Prometheus UI), since `promtool` cannot be installed here.
 */
import { readFileSync } from "node:fs";
import { parser } from "@prometheus-io/lezer-promql";
import { parse as parseYaml } from "yaml";

/** One alerting rule as written. */
export type AlertRule = {
  alert: string;
  expr: string;
  for?: string;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
};

/** Reads `groups[].rules[]` of a rules file. */
export function loadAlertRules(path: string): AlertRule[] {
  const doc = parseYaml(readFileSync(path, "utf8")) as { groups?: { name: string; rules?: AlertRule[] }[] };
  return (doc.groups ?? []).flatMap((g) => g.rules ?? []);
}

/**
 * Parses one PromQL expression.
 * @returns the syntax errors (as `offset: text` strings) and the metric names it selects (a
 *   histogram's `_bucket`/`_count`/`_sum` series named by their family)
 */
export function analysePromQl(expr: string): { errors: string[]; metrics: string[] } {
  const errors: string[] = [];
  const metrics = new Set<string>();
  parser.parse(expr).iterate({
    enter(node) {
      if (node.type.isError)
        errors.push(`${node.from}: ${JSON.stringify(expr.slice(Math.max(0, node.from - 10), node.to + 10))}`);
      if (node.name === "Identifier" && node.node.parent?.name === "VectorSelector") {
        metrics.add(expr.slice(node.from, node.to).replace(/_(bucket|count|sum)$/, ""));
      }
    },
  });
  return { errors, metrics: [...metrics] };
}
