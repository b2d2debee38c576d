import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { ClusterError } from "../../../src/cluster/cluster-error.ts";
import { renderDynamicConfig, renderServerConfig } from "../../../src/cluster/server-config.ts";

// The lines of the server module's config/development-postgres12.yaml (v1.29.1) that the cluster
// rewrites, in the file's own shape.
const template = `persistence:
  numHistoryShards: 4
  datastores:
    postgres-default:
      sql:
        connectAddr: "127.0.0.1:5432"
    postgres-visibility:
      sql:
        connectAddr: "127.0.0.1:5432"
global:
  pprof:
    port: 7936
  metrics:
    prometheus:
      listenAddress: "127.0.0.1:8000"
services:
  frontend:
    rpc:
      grpcPort: 7233
      membershipPort: 6933
      httpPort: 7243
  matching:
    rpc:
      grpcPort: 7235
      membershipPort: 6935
  history:
    rpc:
      grpcPort: 7234
      membershipPort: 6934
  worker:
    rpc:
      grpcPort: 7239
      membershipPort: 6939
clusterMetadata:
  clusterInformation:
    active:
      rpcAddress: "localhost:7233"
dynamicConfigClient:
  filepath: "config/dynamicconfig/development-sql.yaml"
  pollInterval: "10s"
`;

const ports = {
  postgres: 40001,
  frontend: 20001,
  frontendHttp: 20002,
  frontendMembership: 20003,
  history: 20004,
  historyMembership: 20005,
  matching: 20006,
  matchingMembership: 20007,
  worker: 20008,
  workerMembership: 20009,
  metrics: 40002,
};

describe("the cluster's Temporal server config", () => {
  it("puts every service on its port, PostgreSQL's port in both stores, and turns pprof off", () => {
    const config = renderServerConfig(template, {
      ports,
      dynamicConfigFile: "/data/config/dynamicconfig/cluster.yaml",
      historyShards: 16,
    });
    for (const port of Object.values(ports).filter((port) => port !== ports.postgres)) {
      assert.match(config, new RegExp(`\\b${port}\\b`), `port ${port}`);
    }
    assert.equal(config.match(/connectAddr: "127\.0\.0\.1:40001"/g)?.length, 2);
    assert.match(config, /numHistoryShards: 16\n/);
    assert.match(config, /pprof:\n\s+port: 0\n/);
    assert.match(config, /rpcAddress: "127\.0\.0\.1:20001"/);
    assert.match(config, /filepath: "\/data\/config\/dynamicconfig\/cluster\.yaml"/);
    assert.doesNotMatch(
      config,
      /\b(5432|7233|7234|7235|7239|7243|6933|6934|6935|6939|7936|8000)\b/,
    );
  });

  it("refuses a template whose shape changed, naming what it could not find", () => {
    const reshaped = template.replace("grpcPort: 7234", "grpcPort: 17234");
    assert.throws(
      () => renderServerConfig(reshaped, { ports, dynamicConfigFile: "/d.yaml", historyShards: 4 }),
      (error: unknown) =>
        error instanceof ClusterError &&
        error.message.includes("0 matches of (grpcPort: )7234") &&
        error.message.includes("src/cluster/server-config.ts"),
    );
  });

  it("adds the project's dynamic config after the module's, with the Nexus callback on our port", () => {
    const dynamic = renderDynamicConfig(
      "component.nexusoperations.callback.endpoint.template:\n  - value: http://localhost:7243/namespaces/{{.NamespaceName}}/nexus/callback\n",
      "system.enableActivityEagerExecution:\n  - value: true\n",
      { frontendHttp: 20002 },
    );
    assert.match(dynamic, /value: http:\/\/127\.0\.0\.1:20002\/namespaces/);
    assert.match(dynamic, /\n\nsystem\.enableActivityEagerExecution:\n {2}- value: true\n$/);
  });
});
