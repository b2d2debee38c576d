import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { setTimeout as sleep } from "node:timers/promises";
import { Connection } from "@temporalio/client";
import { freePort } from "../../../src/dev-server/free-port.ts";
import { clientConnectionInterceptors } from "../../../src/client/index.ts";

// A call failing with UNAVAILABLE (a server stopping) is retried from a timer; when the
// connection is closed before that timer fires, the Temporal client's retry threw "Channel has
// been shut down" from the timer: an uncaught exception that killed `npm start` on Ctrl-C.

describe("a connection closed while a retry is pending", () => {
  it("fails the call instead of throwing from the retry timer", async () => {
    const uncaught: unknown[] = [];
    const record = (error: unknown): void => {
      uncaught.push(error);
    };
    process.on("uncaughtException", record);
    try {
      // Nothing listens there: every attempt fails with UNAVAILABLE and is retried.
      const connection = Connection.lazy({
        address: `127.0.0.1:${await freePort()}`,
        interceptors: clientConnectionInterceptors(),
      });
      const call = connection.workflowService.getSystemInfo({});
      call.catch(() => undefined);
      await sleep(50); // the first attempt has failed; its retry is scheduled
      await connection.close();
      await assert.rejects(call);
      await sleep(1_500); // every retry the client had scheduled has fired by now
      assert.deepEqual(
        uncaught.map((error) => String(error)),
        [],
      );
    } finally {
      process.off("uncaughtException", record);
    }
  });
});
