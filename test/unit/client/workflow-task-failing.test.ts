import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { ServiceError } from "@temporalio/client";
import {
  SessionRequestError,
  WORKFLOW_TASK_FAILING,
  workflowTaskFailing,
} from "../../../src/client/index.ts";
import { toApiError } from "../../../src/server/api-error.ts";

/** A gRPC status error as @grpc/grpc-js builds it: the code and "<code> <NAME>: <details>". */
function grpcError(code: number, message: string): Error {
  return Object.assign(new Error(message), { code });
}

// The shapes the Temporal client throws, as seen against server 1.29 (see
// test/faults/failing-workflow-task.test.ts for the real thing).
const updateRefused = new ServiceError("Failed to start update", {
  cause: grpcError(
    9,
    "9 FAILED_PRECONDITION: Unable to perform workflow execution update due to Workflow Task in failed state.",
  ),
});
const queryRefused = new ServiceError("Failed to query Workflow", {
  cause: grpcError(
    9,
    "9 FAILED_PRECONDITION: Unable to query workflow due to Workflow Task in failed state.",
  ),
});

describe("workflowTaskFailing", () => {
  const cases: [string, unknown, boolean][] = [
    ["an update refused while the task fails", updateRefused, true],
    ["a query refused while the task fails", queryRefused, true],
    [
      "another FAILED_PRECONDITION",
      grpcError(9, "9 FAILED_PRECONDITION: namespace is not active"),
      false,
    ],
    ["RESOURCE_EXHAUSTED", grpcError(8, "8 RESOURCE_EXHAUSTED: too many in-flight updates"), false],
    [
      "the same words under another code",
      grpcError(2, "2 UNKNOWN: Workflow Task in failed state"),
      false,
    ],
    ["not an error", "Workflow Task in failed state", false],
  ];
  for (const [name, error, expected] of cases) {
    it(`${expected ? "recognises" : "does not take"} ${name}`, () => {
      assert.equal(workflowTaskFailing(error), expected);
    });
  }
});

describe("the API's answer while a session's workflow task fails", () => {
  it("is 503 session_not_ready with Retry-After, for a refused query and for a message whose retries ran out", () => {
    const exhausted = new SessionRequestError('session "s1" cannot take requests: …', {
      type: WORKFLOW_TASK_FAILING,
    });
    for (const error of [queryRefused, exhausted]) {
      const answer = toApiError(error, "s1");
      assert.deepEqual(
        [answer.status, answer.code, answer.headers["retry-after"]],
        [503, "session_not_ready", "10"],
      );
      assert.match(answer.message, /session "s1" cannot/);
    }
  });
});
