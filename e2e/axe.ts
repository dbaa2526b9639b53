import { readFile } from "node:fs/promises";
import path from "node:path";
import type { Locator, Page } from "playwright-core";
import { repoRoot } from "./harness.ts";

/** The rule sets the console must meet: WCAG 2.0 and 2.1, levels A and AA. */
const wcagTags = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"];
/** Violations of these impacts fail a test; minor and moderate ones are reported by axe but not gated. */
const blocking = new Set(["serious", "critical"]);

let axeSource: Promise<string> | undefined;
/** axe-core's script from node_modules, read once: nothing is fetched while tests run. */
const loadAxe = () => {
  axeSource ??= readFile(path.join(repoRoot, "node_modules", "axe-core", "axe.min.js"), "utf8");
  return axeSource;
};

interface Finding {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string[]; failureSummary: string }[];
}

/** Where and what axe checks: parts of the page (CSS selectors) and single rules; all of both by default. */
export interface AxeScope {
  include?: string[];
  rules?: string[];
}

/** Runs axe on the page as it is now and answers the serious and critical violations. */
export async function axeViolations(page: Page, scope: AxeScope = {}): Promise<Finding[]> {
  // A page loaded since the last check has lost the script: inject it again when missing.
  // Evaluated through the browser's debugging protocol, not as an inline <script>: the console's
  // Content-Security-Policy rightly refuses inline scripts, and the tests check it stays that way.
  if (!(await page.evaluate(() => "axe" in window))) {
    await page.evaluate(await loadAxe());
  }
  const found = await page.evaluate(
    async ({ tags, include, rules }) => {
      const axe = (
        window as unknown as { axe: { run(context: unknown, options: unknown): Promise<unknown> } }
      ).axe;
      const results = (await axe.run(
        include ? { include: include.map((selector) => [selector]) } : document,
        {
          runOnly: rules ? { type: "rule", values: rules } : { type: "tag", values: tags },
          resultTypes: ["violations"],
        },
      )) as { violations: Finding[] };
      // WCAG 1.4.3 exempts text of inactive controls. axe knows disabled inputs, but not the
      // placeholder span antd draws inside a disabled select or picker, so those are set aside here.
      // (No named helper functions in here: the test runner's transpiler would wrap them in a
      // helper the page does not have.)
      const inactiveControls =
        ".ant-select-disabled, .ant-picker-disabled, .ant-input-disabled, [aria-disabled='true']";
      return results.violations
        .map((violation) => ({
          id: violation.id,
          impact: violation.impact,
          help: violation.help,
          nodes: violation.nodes
            .map((node) => ({ target: node.target.map(String), failureSummary: node.failureSummary }))
            .filter(
              (node) =>
                !(
                  violation.id === "color-contrast" &&
                  // The selector axe wrote names the disabled state it saw; a control that was
                  // disabled only while loading may be enabled again by the time this runs.
                  (/ant-(select|picker|input)-disabled|aria-disabled/.test(node.target.join(" ")) ||
                    document.querySelector(node.target.join(" "))?.closest(inactiveControls))
                ),
            ),
        }))
        .filter((violation) => violation.nodes.length > 0);
    },
    { tags: wcagTags, include: scope.include ?? null, rules: scope.rules ?? null },
  );
  return found.filter((finding) => blocking.has(finding.impact ?? ""));
}

/** One line per failing element: rule, impact, selector, and what to fix. */
export function describeViolations(findings: Finding[]): string {
  return findings
    .flatMap((finding) =>
      finding.nodes.map(
        (node) =>
          `${finding.id} (${finding.impact}) ${node.target.join(" ")}: ${finding.help}\n    ${node.failureSummary.replace(/\n/g, "\n    ")}`,
      ),
    )
    .join("\n");
}

/**
 * Fails with a readable list when the page has any serious or critical WCAG 2.1 A/AA violation.
 * `where` names the screen or dialog in the message.
 */
export async function expectAccessible(page: Page, where: string): Promise<void> {
  const findings = await axeViolations(page);
  if (findings.length === 0) return;
  const count = findings.reduce((sum, finding) => sum + finding.nodes.length, 0);
  throw new Error(
    `${where}: ${count} serious or critical accessibility violations\n${describeViolations(findings)}`,
  );
}

/**
 * Colour contrast of one control while the pointer rests on it (antd's hover colours are not
 * seen by a check of the page at rest: a default button's hovered text was once 3.5:1). Waits for
 * the control's colour transition to end, checks it, then moves the pointer away.
 */
export async function hoveredViolations(page: Page, control: Locator): Promise<Finding[]> {
  await control.hover();
  // (Inline arrows only in here: a named helper would be wrapped in one the page does not have.)
  await control.evaluate(async (element) => {
    await new Promise((resolve) => requestAnimationFrame(resolve));
    while (element.getAnimations().length > 0) await new Promise((resolve) => requestAnimationFrame(resolve));
  });
  await control.evaluate((element) => element.setAttribute("data-axe-hovered", ""));
  try {
    return await axeViolations(page, { include: ["[data-axe-hovered]"], rules: ["color-contrast"] });
  } finally {
    await control.evaluate((element) => element.removeAttribute("data-axe-hovered"));
    await page.mouse.move(0, 0);
  }
}
