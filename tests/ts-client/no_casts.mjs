// Fails when a TypeScript file holds what would let it disagree with the generated
// types unnoticed: a type assertion (`x as T`, `<T>x`; `as const` is fine), a non-null
// assertion (`x!`), the type `any`, or a `@ts-ignore` / `@ts-expect-error` /
// `@ts-nocheck` comment. Run by deploy/ts-client-test.sh on check_client.ts:
//
//     node no_casts.mjs check_client.ts
import { readFileSync } from "node:fs";

import ts from "typescript";

const found = [];
for (const file of process.argv.slice(2)) {
  const text = readFileSync(file, "utf8");
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const report = (node, what) => {
    const { line, character } = source.getLineAndCharacterOfPosition(node.getStart());
    found.push(`${file}:${line + 1}:${character + 1}: ${what}: ${node.getText().slice(0, 80)}`);
  };
  const visit = (node) => {
    if (ts.isAsExpression(node) && !(ts.isTypeReferenceNode(node.type) && node.type.getText() === "const")) {
      report(node, "a type assertion");
    } else if (ts.isTypeAssertionExpression(node)) {
      report(node, "a type assertion");
    } else if (ts.isNonNullExpression(node)) {
      report(node, "a non-null assertion");
    } else if (node.kind === ts.SyntaxKind.AnyKeyword) {
      report(node, "the type any");
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  text.split("\n").forEach((line, i) => {
    if (/@ts-(ignore|expect-error|nocheck)/.test(line)) {
      found.push(`${file}:${i + 1}: a comment that silences the compiler`);
    }
  });
}
for (const line of found) {
  console.error(line);
}
process.exit(found.length ? 1 : 0);
