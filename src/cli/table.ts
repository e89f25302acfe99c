// Plain terminal tables for both CLIs, rendered by cli-table3 without borders (two spaces between
// columns), so they read well in a terminal and stay easy to grep or paste. Columns can be
// right-aligned (numbers); cells may carry ANSI colour (cli-table3 measures their visible width).

import Table from "cli-table3";

export type Align = "left" | "right";

const BORDERLESS = {
  top: "",
  "top-mid": "",
  "top-left": "",
  "top-right": "",
  bottom: "",
  "bottom-mid": "",
  "bottom-left": "",
  "bottom-right": "",
  left: "",
  "left-mid": "",
  mid: "",
  "mid-mid": "",
  right: "",
  "right-mid": "",
  middle: "  ",
};

export function renderTable(head: string[], rows: string[][], align: Align[] = []): string {
  const table = new Table({
    head,
    chars: BORDERLESS,
    style: { head: [], border: [], "padding-left": 0, "padding-right": 0, compact: true },
    colAligns: head.map((_, i) => align[i] ?? "left"),
  });
  table.push(...rows);
  // cli-table3 pads the last column too; trailing spaces help nobody.
  return table
    .toString()
    .split("\n")
    .map((l) => l.trimEnd())
    .join("\n");
}
