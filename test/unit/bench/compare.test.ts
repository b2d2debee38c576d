import assert from "node:assert/strict";
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { changeRows, compareResults } from "../../bench/support/compare.ts";
import { readResults, ResultsFileError } from "../../bench/support/results-file.ts";
import { directionOf, flattenFigures } from "../../bench/support/figures.ts";
import { targetStatuses } from "../../bench/support/targets.ts";

const oldResults = {
  core: { decisionsPerSecond: 129_175, ratioToBaseline: 0.123, measuredAt: "2026-11-21" },
  turn: { iterations: 30, durableMedianMs: 460, historyBytesPerConversationByte: 16.1 },
  scale: {
    points: [
      { sessions: 10, turnsPerSecond: 21, workerOptions: { maxCachedWorkflows: 2395 } },
      { sessions: 1000, turnsPerSecond: 23.7, workerPlusServerCpuMsPerTurn: 61 },
    ],
  },
  replay: { runReplays: [{ replayMs: 3577.9 }, { replayMs: 1444.2 }], replayMs: 8325 },
  machine: { cpus: 2 },
  code: { commit: "abc" },
  measuredAt: "2026-11-21",
};

describe("the figures of a results file", () => {
  it("are its numbers by path, rows of a list keyed by the field naming them, run details left out", () => {
    const figures = flattenFigures(oldResults);
    assert.equal(figures.get("core.decisionsPerSecond"), 129_175);
    assert.equal(figures.get("scale.points[sessions=1000].workerPlusServerCpuMsPerTurn"), 61);
    assert.equal(figures.get("scale.points[sessions=10].workerOptions.maxCachedWorkflows"), 2395);
    assert.equal(figures.get("replay.runReplays[1].replayMs"), 1444.2);
    assert.equal(figures.has("machine.cpus"), false);
    assert.equal(
      [...figures.keys()].some((path) => path.includes("measuredAt")),
      false,
    );
  });

  it("key a list by position when no field tells its rows apart", () => {
    const figures = flattenFigures({ scale: { points: [{ sessions: 10 }, { sessions: 10 }] } });
    assert.deepEqual([...figures.keys()], ["scale.points[0].sessions", "scale.points[1].sessions"]);
  });
});

describe("which way a figure is better", () => {
  it("is higher for rates and the core's ratio, lower for times, bytes, CPU, memory and cost ratios", () => {
    assert.equal(directionOf("core.decisionsPerSecond"), "higher");
    assert.equal(directionOf("core.ratioToBaseline"), "higher");
    assert.equal(directionOf("scale.points[sessions=10].turnsPerSecond"), "higher");
    assert.equal(directionOf("cluster.points[workers=2].throughputRatio"), "higher");
    assert.equal(directionOf("turn.durableMedianMs"), "lower");
    assert.equal(directionOf("turn.ratioToFloor"), "lower");
    assert.equal(directionOf("turn.historyBytesPerConversationByte"), "lower");
    assert.equal(directionOf("scale.points[sessions=1000].workerPeakRssMiB"), "lower");
    assert.equal(directionOf("replay.runReplays[0].events"), "lower");
    assert.equal(directionOf("turn.historyBytesFirstTurn"), "lower");
    assert.equal(directionOf("turn.workflowTasksPerTurn"), "lower");
  });

  it("is not judged for baselines, floors, settings and sizes of the work", () => {
    for (const path of [
      "turn.baselineMedianMs",
      "turn.floorMedianMs",
      "turn.floorWorkflowTasksPerTurn",
      "turn.inProcess100msMedianMs",
      "turn.iterations",
      "turn.conversationBytesPerTurn",
      "scale.points[sessions=10].workerOptions.maxCachedWorkflows",
      "scale.points[sessions=10].sessions",
      "growth.continuedAsNewAfterTurns[0]",
      "turn.turnActivityTypes.runTool",
    ])
      assert.equal(directionOf(path), undefined, path);
  });
});

describe("comparing two results files", () => {
  const newResults = {
    core: { decisionsPerSecond: 2_100_000, ratioToBaseline: 1.9 },
    turn: { iterations: 10, durableMedianMs: 500, ratioToFloor: 0.95 },
    scale: {
      points: [
        { sessions: 10, turnsPerSecond: 21, workerOptions: { maxCachedWorkflows: 300 } },
        { sessions: 1000, turnsPerSecond: 50, workerPlusServerCpuMsPerTurn: 18 },
      ],
    },
    replay: { runReplays: [{ replayMs: 1000 }], replayMs: 1900 },
  };
  const changes = compareResults(oldResults, newResults);
  const byFigure = new Map(changes.map((change) => [change.figure, change]));

  it("gives each figure old → new, its change in percent and whether that is better", () => {
    assert.deepEqual(byFigure.get("turn.durableMedianMs"), {
      figure: "turn.durableMedianMs",
      old: 460,
      new: 500,
      changePercent: 8.7,
      direction: "lower",
      verdict: "worse",
    });
    assert.equal(byFigure.get("scale.points[sessions=1000].turnsPerSecond")?.verdict, "better");
    assert.equal(byFigure.get("scale.points[sessions=10].turnsPerSecond")?.verdict, "unchanged");
    assert.equal(byFigure.get("turn.iterations")?.verdict, "changed");
  });

  it("calls a move under 2 % within noise, unless it crosses the figure's target", () => {
    const small = compareResults(
      { turn: { durableMedianMs: 200, historyBytesPerConversationByte: 3.01 } },
      { turn: { durableMedianMs: 203, historyBytesPerConversationByte: 2.99 } },
    );
    const verdicts = new Map(small.map((change) => [change.figure, change.verdict]));
    assert.equal(verdicts.get("turn.durableMedianMs"), "within noise");
    assert.equal(verdicts.get("turn.historyBytesPerConversationByte"), "better");
  });

  it("shows figures only one file has as added or removed", () => {
    assert.equal(byFigure.get("turn.ratioToFloor")?.verdict, "added");
    assert.equal(byFigure.get("turn.ratioToFloor")?.old, undefined);
    assert.equal(byFigure.get("turn.historyBytesPerConversationByte")?.verdict, "removed");
    assert.equal(byFigure.get("replay.runReplays[1].replayMs")?.verdict, "removed");
    assert.equal(changes.at(-1)?.verdict, "removed");
  });

  it("says for a target's figure whether it moved toward the target and meets it before and after", () => {
    const cpu = byFigure.get("scale.points[sessions=1000].workerPlusServerCpuMsPerTurn");
    assert.equal(cpu?.verdict, "better");
    assert.deepEqual(cpu.target, {
      text: "≤ 20 ms CPU/turn",
      metBefore: false,
      metAfter: true,
    });
    const rows = changeRows(changes);
    const cpuRow = rows.find(
      (row) => row["figure"] === "scale.points[sessions=1000].workerPlusServerCpuMsPerTurn",
    );
    assert.equal(cpuRow?.["verdict"], "better (toward target)");
    assert.equal(cpuRow["target"], "≤ 20 ms CPU/turn: not met → met");
    assert.equal(cpuRow["Δ%"], "-70.5%");
  });

  it("leaves unchanged figures out of the table unless all are asked for", () => {
    const moved = changeRows(changes).map((row) => row["figure"]);
    assert.equal(moved.includes("scale.points[sessions=10].turnsPerSecond"), false);
    const all = changeRows(changes, { all: true }).map((row) => row["figure"]);
    assert.equal(all.includes("scale.points[sessions=10].turnsPerSecond"), true);
  });
});

describe("targets against a results file", () => {
  it("are met, not met, or not measured when the file lacks the figure", () => {
    const statuses = targetStatuses(
      flattenFigures({
        core: { decisionsPerSecond: 2_500_000 },
        turn: { ratioToFloor: 1.3 },
        replay: { replayMs: 2000 },
      }),
    );
    const byFigure = new Map(statuses.map((status) => [status.figure, status]));
    assert.deepEqual(byFigure.get("core.decisionsPerSecond"), {
      figure: "core.decisionsPerSecond",
      text: "core decisions per second, 20-step template",
      target: "≥ 2,000,000 decisions/s",
      value: 2_500_000,
      ratioToTarget: 1.25,
      met: true,
    });
    assert.equal(byFigure.get("turn.ratioToFloor")?.met, false);
    // "< 2 s" is strict: exactly 2 s does not meet it.
    assert.equal(byFigure.get("replay.replayMs")?.met, false);
    const absent = byFigure.get("scale.openLoop.firstTurnP95Ms");
    assert.equal(absent?.value, null);
    assert.equal(absent.met, null);
  });
});

describe("reading a results file to compare", () => {
  const dir = mkdtempSync(join(tmpdir(), "bench-compare-"));
  after(() => {
    rmSync(dir, { recursive: true, force: true });
  });
  const write = (name: string, text: string) => {
    const file = join(dir, name);
    writeFileSync(file, text);
    return file;
  };
  const refusal = (file: string) => {
    try {
      readResults(file);
    } catch (error) {
      assert.ok(error instanceof ResultsFileError);
      return error.message;
    }
    assert.fail(`${file} was accepted`);
  };

  it("names a missing file and how to get one", () => {
    const file = join(dir, "absent.json");
    assert.match(
      refusal(file),
      new RegExp(`^${file}: cannot read it \\(no such file\\);.*git show HEAD:bench/results.json`),
    );
  });

  it("names a file that is not JSON, with the parser's reason", () => {
    const file = write("broken.json", '{"turn": {');
    assert.match(refusal(file), new RegExp(`^${file}: not JSON \\(`));
  });

  it("refuses JSON that is not an object of results, or has no figures", () => {
    assert.match(
      refusal(write("list.json", "[1, 2]")),
      /holds an array, not an object of benchmark results/,
    );
    assert.match(
      refusal(write("empty.json", '{"machine": {"cpus": 2}}')),
      /has no numeric figures/,
    );
  });

  it("refuses a directory", () => {
    const sub = join(dir, "sub");
    mkdirSync(sub);
    assert.match(refusal(sub), /it is a directory, not a file/);
  });

  it("accepts what npm run bench writes", () => {
    const file = write("ok.json", JSON.stringify(oldResults));
    assert.equal(readResults(file)["measuredAt"], "2026-11-21");
  });
});
