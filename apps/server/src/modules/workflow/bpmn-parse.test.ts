import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { describe, it } from "node:test";
import { BpmnInvalid, parseBpmn } from "./bpmn-parse.ts";

const wrap = (body: string) => `<?xml version="1.0" encoding="UTF-8"?>
<definitions xmlns="http://www.omg.org/spec/BPMN/20100524/MODEL" xmlns:flowable="http://flowable.org/bpmn"
  targetNamespace="t"><process id="P" name="测试" isExecutable="true">${body}</process></definitions>`;

describe("reading a BPMN file", () => {
  it("reads the shipped leave process with its user tasks", async () => {
    const xml = await readFile(new URL("./processes/leave.bpmn20.xml", import.meta.url), "utf8");
    const parsed = await parseBpmn(xml);
    assert.equal(parsed.key, "Leave");
    assert.deepEqual(Object.keys(parsed.userTasks), ["leaderTask", "hrTask"]);
    assert.equal(parsed.userTasks.hrTask?.candidateGroups, "hr");
  });

  it("finds user tasks inside sub-processes", async () => {
    const parsed = await parseBpmn(
      wrap(`<startEvent id="s"/><sequenceFlow id="f" sourceRef="s" targetRef="sub"/>
        <subProcess id="sub"><startEvent id="s2"/><sequenceFlow id="f2" sourceRef="s2" targetRef="inner"/>
        <userTask id="inner" name="内层" flowable:candidateGroups="boss"/></subProcess>`),
    );
    assert.deepEqual(parsed.userTasks.inner, { name: "内层", candidateGroups: "boss" });
  });

  it("refuses with a reason: no start, two processes, timers, unreadable XML", async () => {
    const cases: [string, RegExp][] = [
      [wrap('<userTask id="t"/>'), /开始事件/],
      [
        wrap('<startEvent id="s"/>').replace(
          "</definitions>",
          '<process id="Q" isExecutable="true"/></definitions>',
        ),
        /一个可执行流程/,
      ],
      [
        wrap(
          '<startEvent id="s"/><intermediateCatchEvent id="wait"><timerEventDefinition/></intermediateCatchEvent>',
        ),
        /定时事件/,
      ],
      ["not xml", /./],
    ];
    for (const [xml, reason] of cases) {
      await assert.rejects(
        parseBpmn(xml),
        (error: unknown) => error instanceof BpmnInvalid && reason.test(error.message),
      );
    }
  });
});
