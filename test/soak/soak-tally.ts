/** What a soak run sent and what went wrong, by kind. */
export class SoakTally {
  readonly sent = new Map<string, number>();
  /** Sessions with a failed workflow task, or closed in a way nobody asked for. */
  readonly broken: string[] = [];
  /** Sessions that did not answer, or did not end, when asked at the end of the run. */
  readonly stalled: string[] = [];
  /** Replies accepted but never delivered to their client. */
  readonly lost: string[] = [];
  /** Secrets or another tenant's data seen where they must never be. */
  readonly leaked: string[] = [];
  /** Answers other than the one the contract promises (a 500, a wrong status), not counted above. */
  readonly wrong: string[] = [];

  count(kind: string, times = 1): void {
    this.sent.set(kind, (this.sent.get(kind) ?? 0) + times);
  }

  expect(condition: boolean, what: string): void {
    if (!condition) this.wrong.push(what);
  }

  failures(): number {
    return this.broken.length + this.stalled.length + this.lost.length + this.leaked.length;
  }

  report(minutes: number): string {
    const lines = [`soak: ${minutes} minute(s); sent:`];
    for (const [kind, times] of [...this.sent.entries()].sort())
      lines.push(`  ${String(times).padStart(6)}  ${kind}`);
    const list = (label: string, items: string[]): void => {
      lines.push(`${label}: ${items.length}`);
      for (const item of items.slice(0, 10)) lines.push(`    ${item}`);
      if (items.length > 10) lines.push(`    … and ${items.length - 10} more`);
    };
    list("sessions broken", this.broken);
    list("sessions stalled", this.stalled);
    list("replies lost", this.lost);
    list("secrets or data leaked", this.leaked);
    list("wrong answers", this.wrong);
    return lines.join("\n");
  }
}
