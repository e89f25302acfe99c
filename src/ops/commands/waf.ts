// `resinctl waf`: the firewall rules the edge worker wants in front of it (method allow-list,
// API-key header on the API routes, body size on /run). Locally a dry-run report; on the
// cloudflare provider, --apply --zone ID replaces the zone's custom WAF ruleset through the REST API.

import { leaf, type Cmd } from "../command.js";
import type { CmdResult, Ctx, Inv } from "../context.js";
import { usageError } from "../errors.js";
import { table } from "../output.js";

export const WAF_RULES = [
  {
    description: "resin: only GET, POST, PUT, DELETE, OPTIONS",
    expression: 'not http.request.method in {"GET" "POST" "PUT" "DELETE" "OPTIONS"}',
    action: "block",
  },
  {
    description: "resin: API routes need X-API-Key",
    expression:
      'not starts_with(http.request.uri.path, "/health") and not any(http.request.headers.names[*] == "x-api-key")',
    action: "block",
  },
  {
    description: "resin: /run bodies up to 8 MB",
    expression: 'http.request.uri.path eq "/run" and http.request.body.size gt 8388608',
    action: "block",
  },
];

async function waf(ctx: Ctx, { opts }: Inv): Promise<CmdResult> {
  const rows = WAF_RULES.map((r) => [r.action, r.description, r.expression]);
  if (opts.apply) {
    if (ctx.providerName() !== "cloudflare")
      throw usageError("--apply needs the cloudflare provider (locally waf is a dry-run report)");
    if (!opts.zone) throw usageError("--apply needs --zone <zone id>");
    await ctx.cloudflare().putWafRules(String(opts.zone), WAF_RULES);
    return {
      data: { applied: true, zone: opts.zone, rules: WAF_RULES },
      text: `applied ${WAF_RULES.length} rules to zone ${opts.zone}`,
    };
  }
  return {
    data: { dry_run: true, rules: WAF_RULES },
    text: `dry run: the rules resinctl would set\n${table(ctx.out, ["action", "rule", "expression"], rows)}`,
  };
}

export const commands: Record<string, Cmd> = {
  waf: leaf("firewall rules (cloudflare: --apply --zone; local: dry-run report)", waf, {
    options: [
      ["--apply", "replace the zone's custom WAF rules (cloudflare)"],
      ["--zone <ID>", "the zone id"],
    ],
  }),
};
