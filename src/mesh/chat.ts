// The chat-bot route (Telegram's webhook shape, registered by `resinctl deploy telegram-webhook`):
// the update must carry the bot's secret token header, and only chats on the allowlist
// (CHAT_ALLOWLIST, comma-separated ids) are obeyed. Commands:
//   /buy SYMBOL QTY [test]   /sell SYMBOL QTY [test]   /close SYMBOL [QTY] [test]   /kill on|off|show
// An order's idempotency key is the chat and message id, so Telegram's redelivery of an update
// places nothing twice.

import { ApiError } from "../server/errors.js";
import { type MeshEnv, readSecret } from "./bindings.js";
import { safeEqual } from "./auth.js";
import type { OrderIntent } from "./signal.js";

export type ChatCommand =
  | { kind: "order"; intent: OrderIntent }
  | { kind: "kill"; action: "on" | "off" | "show" }
  | { kind: "help"; text: string };

const HELP = "commands: /buy SYMBOL QTY [test], /sell SYMBOL QTY [test], /close SYMBOL [QTY] [test], /kill on|off|show";

export function chatAllowlist(env: MeshEnv): Set<string> {
  const raw = typeof env.CHAT_ALLOWLIST === "string" ? env.CHAT_ALLOWLIST : "";
  return new Set(
    raw
      .split(",")
      .map((s) => s.trim())
      .filter(Boolean),
  );
}

/** Checks the secret token and the allowlist; returns the chat id and message. */
export async function authorizeChat(
  env: MeshEnv,
  req: Request,
  update: unknown,
): Promise<{ chatId: string; messageId: string; text: string }> {
  const secret = await readSecret(env, "TELEGRAM_WEBHOOK_SECRET");
  if (!secret)
    throw new ApiError(503, "AUTH_NOT_CONFIGURED", "TELEGRAM_WEBHOOK_SECRET is not set on the trade service");
  if (!(await safeEqual(req.headers.get("x-telegram-bot-api-secret-token") ?? "", secret)))
    throw new ApiError(401, "UNAUTHORIZED", "missing or wrong X-Telegram-Bot-Api-Secret-Token header");
  const msg = (update as { message?: { message_id?: unknown; chat?: { id?: unknown }; text?: unknown } } | null)
    ?.message;
  const chatId = msg?.chat?.id;
  if (msg === undefined || (typeof chatId !== "number" && typeof chatId !== "string"))
    throw new ApiError(400, "INVALID_FIELD", "update has no message.chat.id", { field: "message.chat.id" });
  if (!chatAllowlist(env).has(String(chatId)))
    throw new ApiError(403, "CHAT_NOT_ALLOWED", `chat ${chatId} is not on CHAT_ALLOWLIST`, {
      field: "message.chat.id",
    });
  return {
    chatId: String(chatId),
    messageId: String(msg.message_id ?? ""),
    text: typeof msg.text === "string" ? msg.text : "",
  };
}

export function parseChatCommand(chatId: string, messageId: string, text: string): ChatCommand {
  const words = text.trim().split(/\s+/);
  const cmd = (words[0] ?? "").replace(/@.*$/, "").toLowerCase();
  const test = words.includes("test");
  const args = words.slice(1).filter((w) => w !== "test");
  if (cmd === "/kill") {
    const a = (args[0] ?? "show").toLowerCase();
    return a === "on" || a === "off" || a === "show" ? { kind: "kill", action: a } : { kind: "help", text: HELP };
  }
  if (cmd === "/buy" || cmd === "/sell" || cmd === "/close") {
    const symbol = args[0];
    const qty = args[1] === undefined ? null : Number(args[1]);
    if (!symbol || (qty !== null && !(qty > 0)) || (cmd !== "/close" && qty === null))
      return { kind: "help", text: HELP };
    return {
      kind: "order",
      intent: {
        key: `chat:${chatId}:${messageId}`,
        source: "chat",
        principal: `chat:${chatId}`,
        symbol: symbol.toUpperCase(),
        action: cmd.slice(1) as OrderIntent["action"],
        qty,
        price: null,
        test,
        queued_at: null,
        meta: { chat_id: chatId, message_id: messageId },
      },
    };
  }
  return { kind: "help", text: HELP };
}
