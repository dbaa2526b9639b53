import type { Page } from "playwright-core";

/**
 * Where a screen shows data, not labels: table rows, list rows and description values, trees of
 * areas, charts, values chosen in selects, and elements marked `data-value`. Chinese there is what was typed.
 */
const DATA = [
  ".ant-table-tbody",
  ".ant-list-item",
  ".ml-rank-row",
  ".ant-descriptions-item-content",
  ".ant-tree",
  ".ant-select-selection-item",
  // A single select's chosen value (antd 6 renders it in the select's content, not an item).
  ".ant-select-content-has-value",
  "svg",
  "canvas",
  // A value shown outside a table (a room's label, an owner's name in a list of hits).
  "[data-value]",
].join(", ");
/** Data inside a label: the demo tenant's name in the home page's greeting. */
const DATA_VALUES = ["阳光公寓(演示)"];

/**
 * Every label the reader sees outside data that matches `pattern` (source and flags): visible text,
 * and the placeholders, titles and accessible names of what is on screen (side menu, top bar, tabs
 * and the shown screen). Plain script text: the test's compiler would wrap named functions in
 * helpers the page lacks.
 */
const FIND_LABELS = `(dataSelector, dataValues, pattern) => {
  const matches = new RegExp(pattern[0], pattern[1]);
  const found = new Set();
  const shown = (element) =>
    element.checkVisibility({ checkOpacity: true, checkVisibilityCSS: true }) && !element.closest(dataSelector);
  const describe = (element) => {
    const id = element.getAttribute("data-testid");
    const classes = [...element.classList].slice(0, 2).join(".");
    return element.tagName.toLowerCase() + (id ? "[" + id + "]" : "") + (classes ? "." + classes : "");
  };
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const text = dataValues.reduce((left, value) => left.replaceAll(value, ""), (node.textContent || "").trim());
    const parent = node.parentElement;
    if (text && matches.test(text) && parent && shown(parent)) found.add('"' + text + '" in ' + describe(parent));
  }
  for (const element of document.querySelectorAll("[placeholder], [title], [aria-label]")) {
    for (const name of ["placeholder", "title", "aria-label"]) {
      const value = element.getAttribute(name) || "";
      if (matches.test(value) && shown(element)) found.add(name + ' "' + value + '" of ' + describe(element));
    }
  }
  return [...found];
}`;

const labelsMatching = (page: Page, pattern: RegExp): Promise<string[]> =>
  page.evaluate(
    `(${FIND_LABELS})(${JSON.stringify(DATA)}, ${JSON.stringify(DATA_VALUES)}, ${JSON.stringify([pattern.source, pattern.flags])})`,
  );

/** The Chinese labels of the page as shown, each with the element it sits in. */
export const untranslated = (page: Page): Promise<string[]> =>
  labelsMatching(page, /[\u3400-\u9fff\uff00-\uffef\u3000-\u303f]/);

/**
 * English phrases among the Chinese page's labels: two words of letters in a row ("List logUsual",
 * "Supply: Closed"). Single names (DTU, Excel, PGlite, kWh) are how Chinese screens write them.
 */
export const untranslatedEnglish = (page: Page): Promise<string[]> =>
  labelsMatching(page, /[A-Za-z]{3,}[:,]?\s+[A-Za-z]{2,}/);
