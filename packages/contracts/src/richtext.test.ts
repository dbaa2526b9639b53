import assert from "node:assert/strict";
import { test } from "node:test";
import { sanitizeRichText } from "./richtext.ts";

test("rich text keeps formatting and drops scripts, handlers and script URLs", () => {
  assert.equal(sanitizeRichText("<p><b>停电通知</b></p>"), "<p><b>停电通知</b></p>");
  assert.equal(sanitizeRichText('<p onclick="steal()">x</p>'), "<p>x</p>");
  assert.equal(sanitizeRichText("<script>alert(1)</script>ok"), "ok");
  assert.equal(sanitizeRichText('<a href="javascript:alert(1)">x</a>'), "<a href>x</a>");
  assert.equal(sanitizeRichText('<img src="x" onerror="alert(1)">'), "<img src>");
  assert.match(
    sanitizeRichText('<img src="/api/blade-resource/oss/file/a.png">'),
    /src="\/api\/blade-resource/,
  );
  assert.equal(sanitizeRichText('<iframe src="https://evil"></iframe>ok'), "ok");
});
