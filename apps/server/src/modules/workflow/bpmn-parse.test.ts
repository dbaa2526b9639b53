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

  it("accepts boundary and intermediate timers with a duration, a date or an expression", async () => {
    const parsed = await parseBpmn(
      wrap(`<startEvent id="s"/><sequenceFlow id="a" sourceRef="s" targetRef="t"/><userTask id="t" name="办理"/>
        <boundaryEvent id="late" attachedToRef="t"><timerEventDefinition><timeDuration>\${limit}</timeDuration></timerEventDefinition></boundaryEvent>
        <sequenceFlow id="b" sourceRef="t" targetRef="w"/>
        <intermediateCatchEvent id="w"><timerEventDefinition><timeDuration>P1DT2H</timeDuration></timerEventDefinition></intermediateCatchEvent>
        <sequenceFlow id="c" sourceRef="w" targetRef="d"/>
        <intermediateCatchEvent id="d"><timerEventDefinition><timeDate>2027-01-01T00:00:00Z</timeDate></timerEventDefinition></intermediateCatchEvent>`),
    );
    assert.deepEqual(Object.keys(parsed.userTasks), ["t"]);
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
      [
        wrap(
          '<startEvent id="s"><timerEventDefinition><timeDuration>PT1H</timeDuration></timerEventDefinition></startEvent>',
        ),
        /定时开始事件/,
      ],
      [
        wrap(
          '<startEvent id="s"/><intermediateCatchEvent id="w"><timerEventDefinition><timeCycle>R3/PT1H</timeCycle></timerEventDefinition></intermediateCatchEvent>',
        ),
        /timeCycle/,
      ],
      [
        wrap(
          '<startEvent id="s"/><intermediateCatchEvent id="w"><timerEventDefinition><timeDuration>an hour</timeDuration></timerEventDefinition></intermediateCatchEvent>',
        ),
        /ISO 8601/,
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
