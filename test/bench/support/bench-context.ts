import { globalSetup, globalTeardown } from "../../support/global-setup.ts";
import type { BenchSettings } from "./bench-settings.ts";
import { createTestEnv, testServer, type TestEnv } from "../../support/temporal-env.ts";

/** A session `growth` drove, kept for `replay`. */
export interface LongSession {
  workflowId: string;
  turns: number;
}

/**
 * What the benchmarks share in one run: a real Temporal dev server started the way the tests
 * start it (test/support/global-setup.ts), a test env with one in-process scripted-model worker,
 * and the long session `growth` leaves for `replay`. Everything starts on first use.
 */
export class BenchContext {
  readonly settings: BenchSettings;
  longSession: LongSession | undefined;
  private server: Promise<void> | undefined;
  private sharedEnv: Promise<TestEnv> | undefined;

  constructor(settings: BenchSettings) {
    this.settings = settings;
  }

  progress(line: string): void {
    console.log(`  ${line}`);
  }

  /** The dev server's address and namespace. */
  async temporal(): Promise<{ address: string; namespace: string }> {
    this.server ??= globalSetup();
    await this.server;
    return testServer();
  }

  /** A client and a worker running in this process, on their own task queue. */
  async env(): Promise<TestEnv> {
    this.sharedEnv ??= this.temporal().then(async () => {
      const env = await createTestEnv({ taskQueue: "bench-sessions" });
      await env.startWorker();
      return env;
    });
    return this.sharedEnv;
  }

  async close(): Promise<void> {
    if (this.sharedEnv !== undefined) await (await this.sharedEnv).close();
    if (this.server !== undefined) await globalTeardown();
  }
}
