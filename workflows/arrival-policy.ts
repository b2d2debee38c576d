import {
  experimental_createSteering as createSteering,
  type Experimental_Steering as Steering,
} from "ai";
import type { ArrivalPolicy } from "../src/orchestration/index.ts";
import type { TurnResult, UserMessage } from "../src/session/session-types.ts";
import { recordAnswer } from "./message-intake.ts";
import type { Session } from "./session.ts";
import { cancelActiveTurn } from "./turn-cancel.ts";

/**
 * What a message that arrives while a turn runs does, per the template's
 * `session.arrivalPolicy`: `queue` waits its turn (snapshots from before the setting existed
 * queue, as they always did), `steer` joins the running turn, `interrupt` stops it, `reject`
 * is refused as busy.
 */
export function arrivalPolicyOf(session: Session): ArrivalPolicy {
  return session.template.session.arrivalPolicy ?? "queue";
}

/**
 * Why a new message is refused on arrival, or undefined: only under `reject`, and only while a
 * turn runs. The caller checks first that the id is new (a repeat is answered, never refused).
 */
export function busyRefusal(session: Session): string | undefined {
  const active = session.state.activeTurn;
  if (active === undefined || arrivalPolicyOf(session) !== "reject") return undefined;
  return `the session is busy with turn ${active.turn} (message ${active.messageId}) and its agent's session.arrivalPolicy is "reject": send the message again once that turn is answered, or cancel the turn first`;
}

/**
 * The steering a turn's model loop takes under `steer` (undefined otherwise): messages that
 * arrive while it runs are handed to it.
 */
export function steeringForTurn(session: Session): Steering | undefined {
  if (arrivalPolicyOf(session) !== "steer") return undefined;
  const steering = createSteering();
  session.turnSteering = steering;
  return steering;
}

/**
 * A new message was queued while a turn may be running. Under `interrupt` it stops that turn
 * (the message is answered next). Under `steer` it is handed to the running model loop, which
 * adds it before its next model call (or makes one more call when the model had finished its
 * answer); once delivered it is answered with the turn it joined. One the turn could no longer
 * take (it was ending) stays queued and runs as the next turn, so nothing is lost.
 */
export function onArrival(session: Session, message: UserMessage): void {
  const active = session.state.activeTurn;
  if (active === undefined) return;
  const policy = arrivalPolicyOf(session);
  if (policy === "interrupt") {
    cancelActiveTurn(session, `interrupted by message ${message.messageId}`);
    return;
  }
  const steering = session.turnSteering;
  if (policy !== "steer" || steering === undefined) return;
  void steering.steer(message.text, { id: message.messageId }).then((outcome) => {
    if (outcome.type !== "delivered") return;
    active.steered.push(message.messageId);
    session.emit({
      type: "message_steered",
      messageId: message.messageId,
      turn: active.turn,
      text: message.text,
    });
  });
}

/** Each message that joined the turn is answered with it: same turn, same reply. */
export function answerSteered(
  session: Session,
  steered: readonly string[],
  result: TurnResult,
): void {
  const { state } = session;
  if (steered.length === 0) return;
  state.pending = state.pending.filter((queued) => !steered.includes(queued.messageId));
  for (const messageId of steered) {
    recordAnswer(state, { ...result, messageId, joinedTurnOf: result.messageId });
  }
}
