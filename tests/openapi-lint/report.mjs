// Prints the problems of a `redocly lint --format json` report, grouped by rule, and
// exits 1 when there is any error or warning (Redocly's own exit status ignores
// warnings), 2 when the report cannot be read. Problems listed in an ignore file are
// not in the report; only their count is.
//
//   node tests/openapi-lint/report.mjs REPORT.json SPEC_LABEL
import { readFileSync } from "node:fs";

const [reportPath, label = "the document"] = process.argv.slice(2);
let report;
try {
  report = JSON.parse(readFileSync(reportPath, "utf8"));
} catch (error) {
  // An empty file is the usual case: the CLI stopped before linting and said why.
  if (error.name !== "SyntaxError" || readFileSync(reportPath, "utf8").trim() !== "") {
    console.error(`[openapi-lint] the report of redocly lint: ${error.message}`);
  }
  process.exit(2);
}

const problems = report.problems ?? [];
const totals = report.totals ?? { errors: 0, warnings: 0, ignored: 0 };
const byRule = new Map();
for (const problem of problems) {
  const list = byRule.get(problem.ruleId) ?? [];
  list.push(problem);
  byRule.set(problem.ruleId, list);
}

const plural = (n, word) => `${n} ${word}${n === 1 ? "" : "s"}`;
for (const [rule, list] of [...byRule].sort(([a], [b]) => a.localeCompare(b))) {
  const errors = list.filter((p) => p.severity === "error").length;
  const counts = [
    errors && plural(errors, "error"),
    list.length - errors && plural(list.length - errors, "warning"),
  ].filter(Boolean);
  console.log(`${rule}: ${counts.join(", ")}${list[0].reference ? `  ${list[0].reference}` : ""}`);
  for (const problem of list) {
    const where = problem.location?.[0];
    const line = where?.start ? ` (line ${where.start.line}:${where.start.col})` : "";
    const from = problem.from?.pointer ? ` [via ${problem.from.pointer}]` : "";
    const severity = problem.severity === "error" ? "error" : "warn ";
    console.log(`  ${severity}  ${where?.pointer ?? "?"}${line}${from}  ${problem.message}`);
  }
}

const failed = totals.errors + totals.warnings > 0;
console.log(
  `${label}: ${plural(totals.errors, "error")}, ${plural(totals.warnings, "warning")}` +
    (totals.ignored ? `, ${totals.ignored} ignored` : "") +
    (report.version ? ` (redocly lint ${report.version})` : "") +
    (failed ? "" : ": clean"),
);
process.exit(failed ? 1 : 0);
