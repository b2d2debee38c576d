import { performance } from "node:perf_hooks";
import { workflowIdFor } from "../../src/session/index.ts";
import type { SessionClient } from "../../src/client/index.ts";
import { shippedAgent } from "../support/shipped-agents.ts";
import { uniqueId } from "../support/temporal-env.ts";
import { startBareFloor } from "./support/bare-floor.ts";
import type { BenchContext } from "./support/bench-context.ts";
import { childPidsNamed, cpuSeconds } from "./support/child-node.ts";
import { inProcessAgent } from "./support/in-process-agent.ts";
import { startLatencySessions } from "./support/latency-sessions.ts";
import type { BenchOutcome } from "./support/outcome.ts";
import { allRunHistories, describeRun, totals } from "./support/session-history.ts";
import { median, percentile, ratio, round } from "./support/stats.ts";
import { turnActivities, workflowTasks, type TurnActivities } from "./support/turn-activities.ts";

/** Triggers EvaluationMode: critique → debate → reflect, four model calls and three tools. */
export const evaluationMessage = "Please evaluate this argument: remote work improves productivity";
const expectedTools = ["critique", "debate", "reflect"];
const warmUp = 3;
/** The model latency of the second comparison: a fast hosted model's time to answer. */
export const modelLatencyMs = 100;

export interface TurnBenchResult {
  iterations: number;
  durableMedianMs: number;
  durableP95Ms: number;
  baselineMedianMs: number;
  baselineP95Ms: number;
  ratioToBaseline: number;
  /** The bare-workflow floor: the same number of no-op activities per update-with-start turn. */
  floorMedianMs: number;
  floorP95Ms: number;
  /** Durable turn / floor (target ≤ 1.0). */
  ratioToFloor: number;
  /** Activities the floor ran per turn: the durable turn's model calls and tools, counted. */
  floorActivitiesPerTurn: number;
  /** What that count was made of in the durable turn's history (type → count; "(local)" marks local activities). */
  turnActivityTypes: Record<string, number>;
  floorHistoryEventsPerTurn: number;
  floorHistoryBytesPerTurn: number;
  /** Workflow tasks a session's second turn completed, and a floor turn: round trips, load-free. */
  workflowTasksPerTurn: number;
  floorWorkflowTasksPerTurn: number;
  /** Both sides with a model that waits 100 ms before every answer. */
  inProcess100msMedianMs: number;
  durable100msMedianMs: number;
  durable100msP95Ms: number;
  /** Durable / in process, 100 ms model (target ≤ 1.10). */
  ratioTo100msInProcess: number;
  /** History of a session's first turn with the 100 ms model (the zero-latency one: historyEventsFirstTurn). */
  durable100msHistoryEventsFirstTurn: number;
  durable100msHistoryBytesFirstTurn: number;
  /** CPU of this process per durable turn: the worker, and the client driving it. */
  workerCpuMsPerTurn: number;
  /** CPU of the dev server process per durable turn. */
  serverCpuMsPerTurn: number;
  /** The same for the floor's turns: the CPU durability itself costs. */
  floorWorkerCpuMsPerTurn: number;
  floorServerCpuMsPerTurn: number;
  historyEventsPerTurn: number;
  historyBytesPerTurn: number;
  historyEventsFirstTurn: number;
  historyBytesFirstTurn: number;
  /** JSON size of the messages one such turn adds to the conversation (in process, turn 2). */
  conversationBytesPerTurn: number;
  /** History bytes per byte of conversation: what durability stores beyond the messages. */
  historyBytesPerConversationByte: number;
}

function checkTools(side: string, toolCalls: readonly string[]): void {
  if (toolCalls.join() !== expectedTools.join())
    throw new Error(
      `${side} turn called [${toolCalls.join(", ")}], not ${expectedTools.join(" → ")}`,
    );
}

/** CPU ms per turn of this process and of the dev server over `run`. */
async function cpuPerTurn(
  serverPid: number,
  turns: number,
  run: () => Promise<void>,
): Promise<{ worker: number; server: number }> {
  const before = { worker: process.cpuUsage(), server: cpuSeconds(serverPid) };
  await run();
  const worker = process.cpuUsage(before.worker);
  return {
    worker: round((worker.user + worker.system) / 1000 / turns, 1),
    server: round(((cpuSeconds(serverPid) - before.server) * 1000) / turns, 1),
  };
}

function durableTurn(sessions: SessionClient, template: ReturnType<typeof shippedAgent>) {
  return async (sessionId = uniqueId("bench-turn")) => {
    const result = await sessions.sendWithStart({ template, sessionId }, evaluationMessage, "m1");
    checkTools(
      "durable",
      result.toolCalls.map((call) => call.toolName),
    );
  };
}

/**
 * One evaluation turn of the shipped cognitive-reasoner, each in a fresh session: durably (update
 * with start on the dev server, a worker in this process) against the AI SDK alone in process and
 * against the floor of durability, a bare workflow running as many no-op activities per turn;
 * and both sides again with a 100 ms model. The five kinds of turn take turns, one of each per
 * round, so a load that comes and goes on a shared machine weighs on all of them alike.
 */
export async function runTurnBenchmark(
  context: BenchContext,
): Promise<BenchOutcome<TurnBenchResult>> {
  const template = shippedAgent("cognitive-reasoner");
  const iterations = context.settings.turnIterations;

  const agent = inProcessAgent(template);
  const slowAgent = inProcessAgent(template, { modelLatencyMs });
  const twoTurns = agent.newSession();
  await twoTurns.runTurn(evaluationMessage);
  const conversationBytesPerTurn = (await twoTurns.runTurn(evaluationMessage)).messageBytes;

  const env = await context.env();
  const server = await context.temporal();
  const [serverPid] = childPidsNamed("temporal");
  if (serverPid === undefined) throw new Error("turn: no dev server process found");
  const turn = durableTurn(env.sessions, template);

  // History per turn: a session's first turn (with the session's start), then a second; the
  // second's activities are what the floor runs.
  const lastSession = uniqueId("bench-turn");
  await turn(lastSession);
  const workflowId = workflowIdFor(lastSession);
  const firstRuns = await allRunHistories(env.client, workflowId);
  const first = totals(firstRuns);
  checkTools(
    "durable",
    (await env.sessions.send(lastSession, evaluationMessage, "m2")).toolCalls.map(
      (call) => call.toolName,
    ),
  );
  const secondRuns = await allRunHistories(env.client, workflowId);
  const second = totals(secondRuns);
  if (secondRuns.length !== firstRuns.length)
    throw new Error("turn: the session continued as new during its second turn");
  const secondTurnEvents = (secondRuns.at(-1)?.history.events ?? []).slice(
    firstRuns.at(-1)?.events ?? 0,
  );
  const activities = turnActivities(secondTurnEvents);
  const floorActivities = activities.regular + activities.local;

  const floor = await startBareFloor(env.client, server);
  const slow = await startLatencySessions(env.client, server, modelLatencyMs);
  try {
    const floorTurn = async () => {
      await floor.runTurn(uniqueId("bench-floor"), floorActivities);
    };
    const slowTurn = durableTurn(slow.sessions, template);

    // CPU: each durable side alone, so this process's CPU is that side's worker (and client);
    // the other workers only poll meanwhile. Warm-up turns included.
    const turns = warmUp + iterations;
    context.progress(`turn: CPU of ${turns} durable turns, then ${turns} floor turns, each alone`);
    const cpu = await cpuPerTurn(serverPid, turns, () => repeat(turns, () => turn()));
    const floorCpu = await cpuPerTurn(serverPid, turns, () => repeat(turns, floorTurn));

    // Times: every kind of turn in rounds, one of each per round, so all see the same load.
    const times = await timeRounds(context, iterations, {
      baseline: async () => {
        checkTools("in-process", (await agent.newSession().runTurn(evaluationMessage)).toolCalls);
      },
      durable: () => turn(),
      floor: floorTurn,
      inProcess100ms: async () => {
        const done = await slowAgent.newSession().runTurn(evaluationMessage);
        checkTools("in-process", done.toolCalls);
      },
      durable100ms: () => slowTurn(),
    });

    const floorId = uniqueId("bench-floor");
    await floor.runTurn(floorId, floorActivities);
    const handle = env.client.workflow.getHandle(floorId);
    const floorBefore = describeRun("floor", await handle.fetchHistory());
    await floor.runTurn(floorId, floorActivities);
    const floorAfter = describeRun("floor", await handle.fetchHistory());
    const floorTurnEvents = (floorAfter.history.events ?? []).slice(floorBefore.events);
    const slowSession = uniqueId("bench-turn");
    await slowTurn(slowSession);
    const slowFirstTurn = totals(await allRunHistories(env.client, workflowIdFor(slowSession)));
    return outcome({
      iterations,
      times,
      cpu,
      floorCpu,
      activities,
      floorActivities,
      floorHistory: {
        events: floorAfter.events - floorBefore.events,
        bytes: floorAfter.bytes - floorBefore.bytes,
      },
      workflowTasks: workflowTasks(secondTurnEvents),
      floorWorkflowTasks: workflowTasks(floorTurnEvents),
      slowFirstTurn,
      first,
      second,
      conversationBytesPerTurn,
    });
  } finally {
    await floor.close();
    await slow.close();
  }
}

async function repeat(times: number, run: () => Promise<void>): Promise<void> {
  for (let index = 0; index < times; index++) await run();
}

/** warmUp + iterations rounds of one turn of each kind, in order; the timed rounds' ms by kind. */
async function timeRounds<Kind extends string>(
  context: BenchContext,
  iterations: number,
  kinds: Record<Kind, () => Promise<void>>,
): Promise<Record<Kind, number[]>> {
  const entries = Object.entries(kinds) as [Kind, () => Promise<void>][];
  const times = Object.fromEntries(entries.map(([kind]) => [kind, []])) as unknown as Record<
    Kind,
    number[]
  >;
  for (let index = 0; index < warmUp + iterations; index++) {
    for (const [kind, run] of entries) {
      const start = performance.now();
      await run();
      if (index >= warmUp) times[kind].push(performance.now() - start);
    }
    if (index > 0 && index % 10 === 0)
      context.progress(`turn: round ${index}/${warmUp + iterations}`);
  }
  return times;
}

interface Measured {
  iterations: number;
  times: Record<"baseline" | "durable" | "floor" | "inProcess100ms" | "durable100ms", number[]>;
  cpu: { worker: number; server: number };
  floorCpu: { worker: number; server: number };
  activities: TurnActivities;
  floorActivities: number;
  floorHistory: { events: number; bytes: number };
  workflowTasks: number;
  floorWorkflowTasks: number;
  slowFirstTurn: { events: number; bytes: number };
  first: { events: number; bytes: number };
  second: { events: number; bytes: number };
  conversationBytesPerTurn: number;
}

function outcome(measured: Measured): BenchOutcome<TurnBenchResult> {
  const {
    iterations,
    cpu,
    floorCpu,
    activities,
    floorActivities,
    floorHistory,
    workflowTasks: tasks,
    floorWorkflowTasks,
    slowFirstTurn,
    first,
    second,
    conversationBytesPerTurn,
  } = measured;
  const { baseline, durable, floor: floorTimes, inProcess100ms, durable100ms } = measured.times;
  const result: TurnBenchResult = {
    iterations,
    durableMedianMs: round(median(durable), 1),
    durableP95Ms: round(percentile(durable, 95), 1),
    baselineMedianMs: round(median(baseline), 2),
    baselineP95Ms: round(percentile(baseline, 95), 2),
    ratioToBaseline: ratio(median(durable), median(baseline)),
    floorMedianMs: round(median(floorTimes), 1),
    floorP95Ms: round(percentile(floorTimes, 95), 1),
    ratioToFloor: ratio(median(durable), median(floorTimes)),
    floorActivitiesPerTurn: floorActivities,
    turnActivityTypes: activities.byType,
    floorHistoryEventsPerTurn: floorHistory.events,
    floorHistoryBytesPerTurn: floorHistory.bytes,
    workflowTasksPerTurn: tasks,
    floorWorkflowTasksPerTurn: floorWorkflowTasks,
    inProcess100msMedianMs: round(median(inProcess100ms), 1),
    durable100msMedianMs: round(median(durable100ms), 1),
    durable100msP95Ms: round(percentile(durable100ms, 95), 1),
    ratioTo100msInProcess: ratio(median(durable100ms), median(inProcess100ms)),
    durable100msHistoryEventsFirstTurn: slowFirstTurn.events,
    durable100msHistoryBytesFirstTurn: slowFirstTurn.bytes,
    workerCpuMsPerTurn: cpu.worker,
    serverCpuMsPerTurn: cpu.server,
    floorWorkerCpuMsPerTurn: floorCpu.worker,
    floorServerCpuMsPerTurn: floorCpu.server,
    historyEventsPerTurn: second.events - first.events,
    historyBytesPerTurn: second.bytes - first.bytes,
    historyEventsFirstTurn: first.events,
    historyBytesFirstTurn: first.bytes,
    conversationBytesPerTurn,
    historyBytesPerConversationByte: ratio(second.bytes - first.bytes, conversationBytesPerTurn),
  };
  return {
    result,
    summary: [
      {
        benchmark: "turn",
        figure: `${result.durableMedianMs} ms median, ${result.durableP95Ms} ms p95 per turn (durable)`,
        baseline: `${result.baselineMedianMs} ms median, ${result.baselineP95Ms} ms p95 (AI SDK in process)`,
        ratio: result.ratioToBaseline,
      },
      {
        benchmark: "turn vs floor",
        figure: `${result.durableMedianMs} ms median, ${tasks} workflow tasks per turn (durable)`,
        baseline: `${result.floorMedianMs} ms median, ${floorWorkflowTasks} workflow tasks: bare workflow, ${floorActivities} no-op activities per update`,
        ratio: result.ratioToFloor,
      },
      {
        benchmark: "turn, 100 ms model",
        figure: `${result.durable100msMedianMs} ms median per turn (durable)`,
        baseline: `${result.inProcess100msMedianMs} ms median (AI SDK in process, same model)`,
        ratio: result.ratioTo100msInProcess,
      },
      {
        benchmark: "turn CPU",
        figure: `worker ${result.workerCpuMsPerTurn} ms + server ${result.serverCpuMsPerTurn} ms per turn`,
        baseline: `worker ${result.floorWorkerCpuMsPerTurn} ms + server ${result.floorServerCpuMsPerTurn} ms (bare floor)`,
        ratio: ratio(
          result.workerCpuMsPerTurn + result.serverCpuMsPerTurn,
          result.floorWorkerCpuMsPerTurn + result.floorServerCpuMsPerTurn,
        ),
      },
      {
        benchmark: "turn history",
        figure: `${result.historyEventsPerTurn} events, ${result.historyBytesPerTurn} bytes per turn`,
        baseline: `${result.conversationBytesPerTurn} bytes of messages the turn adds (JSON)`,
        ratio: result.historyBytesPerConversationByte,
      },
    ],
  };
}
