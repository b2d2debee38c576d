import { appendFileSync, mkdirSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { inspect } from "node:util";
import { DefaultLogger, type LogEntry } from "@temporalio/worker";

/** Longest cause quoted in the chat; the whole entry is in the file. */
const noticeLimit = 100;

/**
 * The worker's logger for `npm start`, whose terminal belongs to a conversation: every entry
 * (INFO and up, with its metadata and stack traces) goes to `file`, and a warning or error gives
 * `notify` one short line. A ~35-line stack trace in the middle of a chat buries the answer.
 * The file is truncated at start so it holds this run only.
 */
export function fileWorkerLogger(file: string, notify: (line: string) => void): DefaultLogger {
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, "");
  return new DefaultLogger("INFO", (entry) => {
    appendFileSync(file, formatEntry(entry));
    if (entry.level === "WARN" || entry.level === "ERROR") notify(noticeLine(entry));
  });
}

function formatEntry({ level, timestampNanos, message, meta }: LogEntry): string {
  const time = new Date(Number(timestampNanos / 1_000_000n)).toISOString();
  const details = meta === undefined ? "" : ` ${inspect(meta, { depth: 6, breakLength: 120 })}`;
  return `${time} [${level}] ${message}${details}\n`;
}

/** "worker warning: Activity failed (runTool): <first line of the error>", bounded. */
export function noticeLine({ level, message, meta }: LogEntry): string {
  const activity = typeof meta?.["activityType"] === "string" ? ` (${meta["activityType"]})` : "";
  const error: unknown = meta?.["error"];
  const cause =
    error instanceof Error ? error.message : typeof error === "string" ? error : undefined;
  const firstLine = cause?.split("\n")[0]?.trim();
  const text = `${message}${activity}${firstLine === undefined || firstLine === "" ? "" : `: ${firstLine}`}`;
  const bounded = text.length > noticeLimit ? `${text.slice(0, noticeLimit - 1)}…` : text;
  return `worker ${level === "ERROR" ? "error" : "warning"}: ${bounded}`;
}
