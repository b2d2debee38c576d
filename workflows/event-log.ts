import { EVENT_LOG_LIMIT } from "../src/session/constants.ts";
import type { LoggedEvent, SessionEvent } from "../src/session/session-types.ts";

/** A bounded, offset-numbered log of session events; offsets keep counting across runs. */
export class EventLog {
  private events: LoggedEvent[];
  private nextOffset: number;

  constructor(events: LoggedEvent[] = [], nextOffset = 0) {
    this.events = events;
    this.nextOffset = nextOffset;
  }

  append(event: SessionEvent): void {
    this.events.push({ offset: this.nextOffset++, event });
    if (this.events.length > EVENT_LOG_LIMIT) this.events = this.events.slice(-EVENT_LOG_LIMIT);
  }

  since(after: number): { events: LoggedEvent[]; next: number } {
    return { events: this.events.filter((entry) => entry.offset >= after), next: this.nextOffset };
  }

  snapshot(): { events: LoggedEvent[]; nextEventOffset: number } {
    return { events: [...this.events], nextEventOffset: this.nextOffset };
  }
}
