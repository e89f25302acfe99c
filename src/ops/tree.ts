// The resinctl command tree (ops-cli.md), assembled in the spec's order from one module per
// command group (commands/<group>.ts), so a group can change without touching the others.
// Commands this build does not implement answer NOT_IMPLEMENTED (exit 4); removed commands name
// their replacement.

import type { Cmd } from "./command.js";
import { commands as agentCommands } from "./commands/agent.js";
import { commands as checkCommands } from "./commands/check.js";
import { commands as cloneCommands } from "./commands/clone.js";
import { commands as completionCommands } from "./commands/completion.js";
import { commands as configCommands } from "./commands/config.js";
import { commands as dashboardCommands } from "./commands/dashboard.js";
import { commands as dbCommands } from "./commands/db.js";
import { commands as deployCommands } from "./commands/deploy.js";
import { commands as devCommands } from "./commands/dev.js";
import { commands as disclaimerCommands } from "./commands/disclaimer.js";
import { commands as doctorCommands } from "./commands/doctor.js";
import { commands as infraCommands } from "./commands/infra.js";
import { commands as keysCommands } from "./commands/keys.js";
import { commands as logsCommands } from "./commands/logs.js";
import { commands as monitorCommands } from "./commands/monitor.js";
import { commands as onboardCommands } from "./commands/onboard.js";
import { commands as perfCommands } from "./commands/perf.js";
import { commands as repairCommands } from "./commands/repair.js";
import { commands as schemaCommands } from "./commands/schema.js";
import { commands as scriptCommands } from "./commands/script.js";
import { commands as secretsCommands } from "./commands/secrets.js";
import { commands as testCommands } from "./commands/test.js";
import { commands as traceCommands } from "./commands/trace.js";
import { commands as tuiCommands } from "./commands/tui.js";
import { commands as tunnelCommands } from "./commands/tunnel.js";
import { commands as updateCommands } from "./commands/update.js";
import { commands as wafCommands } from "./commands/waf.js";
import { commands as workersCommands } from "./commands/workers.js";

export type { Cmd, Handler, OptSpec } from "./command.js";

export const TREE: Record<string, Cmd> = {
  ...onboardCommands,
  ...cloneCommands,
  ...devCommands,
  ...deployCommands,
  ...infraCommands,
  ...configCommands,
  ...secretsCommands,
  ...keysCommands,
  ...checkCommands,
  ...doctorCommands,
  ...tunnelCommands,
  ...dbCommands,
  ...monitorCommands,
  ...workersCommands,
  ...repairCommands,
  ...logsCommands,
  ...schemaCommands,
  ...updateCommands,
  ...testCommands,
  ...wafCommands,
  ...dashboardCommands,
  ...tuiCommands,
  ...agentCommands,
  ...scriptCommands,
  ...traceCommands,
  ...perfCommands,
  ...disclaimerCommands,
  ...completionCommands,
};

/** Removed commands and their replacements. */
export const REMOVED: Record<string, string> = {
  "monitor status": "check health",
  "workers status": "check health",
  "dashboard update-urls": "deploy update-internal-urls",
  "config secrets": "secrets",
  "config keys": "keys",
};
