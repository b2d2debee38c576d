import { defineUpdate } from "@temporalio/workflow";
import { z } from "zod";
import type { SessionView } from "./session-types.ts";
import { sharedAcrossSessions } from "../orchestration/shared-across-sessions.ts";

export const UPGRADE_TEMPLATE_UPDATE_NAME = "upgradeTemplate";

/** A template version as src/agents/template-version.ts writes it. */
export const templateVersionSchema = sharedAcrossSessions(
  "src/session/template-upgrade:templateVersionSchema",
  () =>
    z.string().regex(/^sha256:[0-9a-f]{12}$/, "a template version looks like sha256:0123456789ab"),
);

/**
 * What `upgrade` sends: the new template, validated by the loader on the caller's side (the
 * workflow checks again that it can run it), and its version. `force` allows another agent id.
 */
export const upgradeRequestSchema = sharedAcrossSessions(
  "src/session/template-upgrade:upgradeRequestSchema",
  () =>
    z.strictObject({
      template: z.looseObject({ id: z.string().min(1) }),
      templateVersion: templateVersionSchema,
      force: z.boolean().optional(),
    }),
);
export type UpgradeRequest = z.infer<typeof upgradeRequestSchema>;

/** The upgrade as it was applied, at the turn boundary after the request. */
export interface UpgradeOutcome {
  from: string | null;
  to: string;
  /** False when the session already ran this version (nothing was recorded as changed). */
  changed: boolean;
  /** What could not be carried over as it was, in words (a vanished step, a shorter sequence). */
  notes: string[];
  state: SessionView;
}

/** Moves a running session to a new template version at its next turn boundary. */
export const upgradeTemplateUpdate = defineUpdate<UpgradeOutcome, [UpgradeRequest]>(
  UPGRADE_TEMPLATE_UPDATE_NAME,
);
