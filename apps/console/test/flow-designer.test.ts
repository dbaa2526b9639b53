import assert from "node:assert/strict";
import { test } from "node:test";
import { chineseModule } from "../src/pages/flow/designer/bpmn-zh.ts";
import { newDiagram } from "../src/pages/flow/designer/new-diagram.ts";

const translate = chineseModule.translate[1] as (
  template: string,
  replacements?: Record<string, string>,
) => string;

test("the designer's menus speak Chinese and keep what they do not know", () => {
  assert.equal(translate("Append task"), "追加任务");
  assert.equal(translate("User task"), "用户任务");
  assert.equal(translate("Unknown {name}", { name: "x" }), "Unknown x");
});

test("a new diagram is one executable process with a start event, its name escaped", () => {
  const xml = newDiagram(`A & "B" <C>`);
  assert.match(
    xml,
    /<bpmn:process id="Process_[a-z0-9]+" name="A &amp; &quot;B&quot; &lt;C>" isExecutable="true">/,
  );
  assert.match(xml, /<bpmn:startEvent id="StartEvent_1"\/>/);
  assert.match(xml, /xmlns:flowable="http:\/\/flowable.org\/bpmn"/);
  // Two new models never share a process key before they are renamed.
  const key = (text: string) => /process id="([^"]+)"/.exec(text)?.[1];
  assert.notEqual(key(newDiagram("x")), key(newDiagram("x")));
});
