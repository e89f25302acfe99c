// `resinctl test`: the verification pipeline.

import { notImplemented, type Cmd } from "../command.js";

export const commands: Record<string, Cmd> = {
  test: notImplemented("test", "the verification pipeline"),
};
