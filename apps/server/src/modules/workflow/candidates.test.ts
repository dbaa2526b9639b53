// biome-ignore-all lint/suspicious/noTemplateCurlyInString: BPMN expressions are written ${…}, not template literals
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { hasPeople, resolvePeople } from "./candidates.ts";

describe("people of a user task", () => {
  it("gives the task to the assignee the variables name, in either user form", () => {
    assert.deepEqual(resolvePeople({ name: "t", assignee: "${taskUser}" }, { taskUser: "taskUser_42" }), {
      assignee: "42",
      candidateUsers: [],
      candidateGroups: [],
    });
    assert.equal(resolvePeople({ name: "t", assignee: "${taskUser}" }, { taskUser: 7 }).assignee, "7");
  });

  it("falls back to candidates when the assignee resolves to nobody", () => {
    const people = resolvePeople(
      { name: "t", assignee: "${taskUser}", candidateUsers: "${leaders}", candidateGroups: "hr, boss,hr" },
      { leaders: "3,taskUser_4, x,3" },
    );
    assert.deepEqual(people, { assignee: null, candidateUsers: ["3", "4"], candidateGroups: ["hr", "boss"] });
    assert.equal(hasPeople(people), true);
  });

  it("keeps only user ids and role aliases that can name something", () => {
    const people = resolvePeople(
      { name: "t", candidateUsers: "${u}", candidateGroups: "${g}" },
      { u: ["1", "taskUser_99999999999999999999", "drop table"], g: "ok,bad alias,'x'" },
    );
    assert.deepEqual(people, { assignee: null, candidateUsers: ["1"], candidateGroups: ["ok"] });
    assert.equal(hasPeople(resolvePeople({ name: "t", assignee: "${nobody}" }, {})), false);
  });
});
