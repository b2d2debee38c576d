import { approvalCommand } from "../approval-command.ts";

export const approveCommand = approvalCommand("approve");
