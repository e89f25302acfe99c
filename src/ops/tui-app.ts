// The interactive loop of `resinctl tui` (ink): refreshes the snapshot every 2 s, q quits. Its own
// module so ink and React load only when the terminal dashboard runs interactively.

import { render, useApp, useInput } from "ink";
import { createElement, type ReactElement, useEffect, useState } from "react";

interface Props<S> {
  first: S;
  refresh: () => Promise<S>;
  view: (s: S) => Promise<ReactElement>;
  onSnapshot: (s: S) => void;
}

function Dashboard<S>({ first, refresh, view, onSnapshot }: Props<S>): ReactElement | null {
  const [s, set] = useState(first);
  const [el, setEl] = useState<ReactElement | null>(null);
  const { exit } = useApp();
  useInput((input) => {
    if (input === "q") exit();
  });
  useEffect(() => {
    const t = setInterval(() => {
      void refresh().then((next) => {
        onSnapshot(next);
        set(next);
      });
    }, 2000);
    return () => clearInterval(t);
  }, [refresh, onSnapshot]);
  useEffect(() => {
    void view(s).then(setEl);
  }, [s, view]);
  return el;
}

export async function runInteractive<S>(
  first: S,
  refresh: () => Promise<S>,
  view: (s: S) => Promise<ReactElement>,
): Promise<S> {
  let last = first;
  const app = render(createElement(Dashboard<S>, { first, refresh, view, onSnapshot: (s: S) => void (last = s) }));
  await app.waitUntilExit();
  return last;
}
