import assert from "node:assert/strict";
import { test } from "node:test";
import { themes } from "@meterline/contracts";
import fc from "fast-check";
import { AA_TEXT, contrastRatio } from "../src/theme/contrast.ts";
import { accentOf, antdThemeFor, statesOf, themeLooks } from "../src/theme/themes.ts";

const hex = fc
  .tuple(fc.integer({ min: 0, max: 255 }), fc.integer({ min: 0, max: 255 }), fc.integer({ min: 0, max: 255 }))
  .map(([r, g, b]) => `#${[r, g, b].map((v) => v.toString(16).padStart(2, "0")).join("")}`);

test("the default #409EFF: hovered and pressed text on white reads at AA (antd's own #258ce6 was 3.5:1)", () => {
  const { hover, active } = statesOf("theme-default", "#409EFF");
  assert.ok(contrastRatio(hover, "#ffffff") >= AA_TEXT, hover);
  assert.ok(contrastRatio(active, "#ffffff") >= AA_TEXT, active);
  assert.notEqual(hover, accentOf("theme-default", "#409EFF"), "hovering still shows");
  const token = antdThemeFor("theme-default", "#409EFF").token ?? {};
  assert.equal(token.colorPrimaryHover, hover);
  assert.equal(token.colorPrimaryActive, active);
});

test("for any picked colour and theme, hovered and pressed states keep at least the resting contrast (≥ 4.5:1)", () => {
  fc.assert(
    fc.property(hex, fc.constantFrom(...themes), (color, name) => {
      const surface = themeLooks[name].dark ? "#141414" : "#ffffff";
      const atRest = contrastRatio(accentOf(name, color), surface);
      const { hover, active } = statesOf(name, color);
      for (const state of [hover, active]) {
        const ratio = contrastRatio(state, surface);
        assert.ok(ratio >= AA_TEXT && ratio >= atRest - 1e-9, `${name} ${color}: ${state} ${ratio}`);
        // Filled buttons: white text on the light themes' colour, dark text on the dark theme's.
        const onFill = themeLooks[name].dark ? "#141414" : "#ffffff";
        assert.ok(contrastRatio(state, onFill) >= AA_TEXT, `${name} ${color}: text on ${state}`);
      }
    }),
    { numRuns: 300 },
  );
});
