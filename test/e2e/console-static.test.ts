import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { Client, type Connection } from "@temporalio/client";
import { createApiServer, type ApiServer } from "../../src/server/index.ts";
import { connectClient } from "../../src/temporal-connection.ts";
import { testServer } from "../support/temporal-env.ts";

const token = "static-token-1234";

describe("the API serving the web console", () => {
  const dir = mkdtempSync(join(tmpdir(), "agentdock-console-static-"));
  const built = join(dir, "dist");
  let connection: Connection;
  const servers: ApiServer[] = [];
  let url: string;
  let notBuiltUrl: string;

  async function serve(consoleDir: string): Promise<string> {
    const api = createApiServer({
      client: new Client({ connection, namespace: testServer().namespace }),
      taskQueue: "console-static",
      agentsDirs: ["agents"],
      token,
      consoleDir,
      temporalUiUrl: "http://127.0.0.1:8233",
    });
    servers.push(api);
    return (await api.listen(0, "127.0.0.1")).url;
  }

  before(async () => {
    mkdirSync(join(built, "assets"), { recursive: true });
    writeFileSync(join(built, "index.html"), "<!doctype html><div id=root></div>");
    writeFileSync(join(built, "assets", "index-abc123.js"), "console.log(1)");
    writeFileSync(join(built, "assets", "index-abc123.css"), "body{}");
    writeFileSync(join(dir, "secret.txt"), "not for the web");
    connection = await connectClient({ address: testServer().address });
    url = await serve(built);
    notBuiltUrl = await serve(join(dir, "missing"));
  });
  after(async () => {
    for (const server of servers) await server.close();
    await connection.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("answers / and the console's own paths with index.html, revalidated on every load, without a token", async () => {
    for (const path of ["/", "/sessions", "/sessions/abc-123"]) {
      const response = await fetch(`${url}${path}`);
      assert.equal(response.status, 200, path);
      assert.equal(response.headers.get("content-type"), "text/html; charset=utf-8");
      assert.equal(response.headers.get("cache-control"), "no-cache");
      assert.match(await response.text(), /id=root/);
    }
  });

  it("serves hashed assets with their content type, cached for a year", async () => {
    const script = await fetch(`${url}/assets/index-abc123.js`);
    assert.equal(script.status, 200);
    assert.equal(script.headers.get("content-type"), "text/javascript; charset=utf-8");
    assert.equal(script.headers.get("cache-control"), "public, max-age=31536000, immutable");
    assert.equal(await script.text(), "console.log(1)");
    const style = await fetch(`${url}/assets/index-abc123.css`);
    assert.equal(style.headers.get("content-type"), "text/css; charset=utf-8");
  });

  it("answers 404 for a missing asset, a path outside assets and an unknown page", async () => {
    for (const path of [
      "/assets/nope.js",
      "/assets/..%2Fsecret.txt",
      "/assets/..%2F..%2Fsecret.txt",
      "/secret.txt",
      "/sessions/a/b",
    ]) {
      const response = await fetch(`${url}${path}`);
      assert.equal(response.status, 404, path);
      const body = (await response.json()) as { error: { code: string } };
      assert.equal(body.error.code, "not_found", path);
    }
  });

  it("never shadows /api or /healthz: they keep their JSON answers and the token", async () => {
    const unknown = await fetch(`${url}/api/nope`, {
      headers: { authorization: `Bearer ${token}` },
    });
    assert.equal(unknown.status, 404);
    assert.equal(((await unknown.json()) as { error: { code: string } }).error.code, "not_found");
    const refused = await fetch(`${url}/api/config`);
    assert.equal(refused.status, 401);
    const health = await fetch(`${url}/healthz`);
    assert.equal(health.status, 200);
    assert.deepEqual(await health.json(), { ok: true, temporal: "reachable" });
  });

  it("tells the console the Temporal UI's address, the namespace and the caller's tenant", async () => {
    const response = await fetch(`${url}/api/config`, {
      headers: { authorization: `Bearer ${token}` },
    });
    assert.equal(response.status, 200);
    assert.deepEqual(await response.json(), {
      temporalUiUrl: "http://127.0.0.1:8233",
      namespace: testServer().namespace,
      tenant: "default",
    });
  });

  it("says how to build the console when it was not built, and the API still works", async () => {
    const response = await fetch(`${notBuiltUrl}/`);
    assert.equal(response.status, 500);
    assert.equal(response.headers.get("content-type"), "text/html; charset=UTF-8");
    const page = await response.text();
    assert.match(page, /The web console is not built/);
    assert.match(page, /npm run build:console/);
    const agents = await fetch(`${notBuiltUrl}/api/agents`, {
      headers: { authorization: `Bearer ${token}` },
    });
    assert.equal(agents.status, 200);
  });
});
