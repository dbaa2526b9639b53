import assert from "node:assert/strict";
import { test } from "node:test";
import { cssVariablesFor } from "../src/theme/themes.ts";

test("on a coloured header the active top-menu entry keeps the header's text colour, not blue on blue", () => {
  assert.equal(cssVariablesFor("theme-lte", "#409EFF")["--ml-header-accent"], "#ffffff");
  assert.equal(cssVariablesFor("theme-smart", "#409EFF")["--ml-header-accent"], "#ffffff");
  // On the white header the theme colour marks it, as before.
  assert.notEqual(cssVariablesFor("theme-default", "#409EFF")["--ml-header-accent"], "#ffffff");
});
