#!/usr/bin/env python3
"""Generates the gen_*.pine scripts of the corpus: realistic indicator and strategy scripts built
from one moving-average / oscillator kernel each, with varied Pine versions, spacing, wrapping and
optional features (var state, alerts, drawings, tables, UDTs, switch, loops). Deterministic:
re-running it rewrites the same files. The hand-written scripts (v5_*, v6_*) are not touched."""
import os
import random

HERE = os.path.dirname(os.path.abspath(__file__))

# (name, title, expression producing `value` from `src` and `len`, is_oscillator)
KERNELS = [
    ("sma", "Simple MA", "ta.sma(src, len)", False),
    ("ema", "Exponential MA", "ta.ema(src, len)", False),
    ("wma", "Weighted MA", "ta.wma(src, len)", False),
    ("hma", "Hull MA", "ta.hma(src, len)", False),
    ("rma", "Running MA", "ta.rma(src, len)", False),
    ("vwma", "Volume-weighted MA", "ta.vwma(src, len)", False),
    ("alma", "Arnaud Legoux MA", "ta.alma(src, len, 0.85, 6)", False),
    ("linreg", "Linear regression", "ta.linreg(src, len, 0)", False),
    ("swma", "Symmetric MA", "ta.swma(src)", False),
    ("median", "Rolling median", "ta.median(src, len)", False),
    ("rsi", "RSI", "ta.rsi(src, len)", True),
    ("cci", "CCI", "ta.cci(src, len)", True),
    ("mfi", "Money flow", "ta.mfi(src, len)", True),
    ("cmo", "Chande momentum", "ta.cmo(src, len)", True),
    ("stoch", "Stochastic", "ta.stoch(src, high, low, len)", True),
    ("mom", "Momentum", "ta.mom(src, len)", True),
    ("roc", "Rate of change", "ta.roc(src, len)", True),
    ("dev", "Mean deviation", "ta.dev(src, len)", True),
    ("stdev", "Standard deviation", "ta.stdev(src, len)", True),
    ("pctrank", "Percent rank", "ta.percentrank(src, len)", True),
]

SOURCES = ["close", "hl2", "hlc3", "ohlc4", "open", "hlcc4"]


def spaced(style, s):
    """Applies a spacing style to `a = b` and `name = value` pairs."""
    if style == "tight":
        return s.replace(" = ", "=")
    return s


def feature_var_counter(k):
    return ([], [f"var int crosses_{k} = 0", f"if ta.cross(src, value)", f"    crosses_{k} += 1"],
            [f'plot(crosses_{k}, "Crosses", display = display.data_window)'])


def feature_alert(k):
    return ([], [f"up_{k} = ta.crossover(value, value[1])", f"if up_{k} and barstate.isconfirmed",
                 f'    alert("Turned up at " + str.tostring(close), alert.freq_once_per_bar_close)'],
            [f'alertcondition(up_{k}, "Turn up", "The line turned up")'])


def feature_label(k):
    return ([], [f"var label lbl_{k} = na", "if barstate.islast", f"    label.delete(lbl_{k})",
                 f"    lbl_{k} := label.new(bar_index, high, str.tostring(value, format.mintick),",
                 "         style = label.style_label_down, textcolor = color.white)"], [])


def feature_table(k):
    return ([], [f"var table tbl_{k} = table.new(position.top_right, 1, 1)", "if barstate.islast",
                 f"    table.cell(tbl_{k}, 0, 0, str.tostring(value, \"#.##\"))"], [])


def feature_udt(k):
    decls = [f"type Extreme_{k}", "    float hi = na", "    float lo = na", "",
             f"method track(Extreme_{k} this, float v) =>",
             "    this.hi := na(this.hi) ? v : math.max(this.hi, v)",
             "    this.lo := na(this.lo) ? v : math.min(this.lo, v)",
             "    this", ""]
    body = [f"var ext_{k} = Extreme_{k}.new()", f"ext_{k}.track(value)"]
    return (decls, body, [f'plot(ext_{k}.hi, "Highest value", display = display.data_window)'])


def feature_switch(k):
    body = [f"state_{k} = switch", "    value > value[1] and value[1] > value[2] => 2",
            "    value > value[1] => 1", "    value < value[1] => -1", "    => 0"]
    return ([], body, [f'plot(state_{k}, "State", display = display.data_window)'])


def feature_loop(k):
    body = [f"float slopeSum_{k} = 0.0", "for i = 1 to 5",
            f"    slopeSum_{k} += nz(value[i - 1] - value[i])"]
    return ([], body, [f'plot(slopeSum_{k} / 5, "Mean slope")'])


def feature_array(k):
    body = [f"var hist_{k} = array.new<float>()", f"hist_{k}.push(value)", f"if hist_{k}.size() > 50",
            f"    hist_{k}.shift()", f"avg_{k} = hist_{k}.avg()"]
    return ([], body, [f'plot(avg_{k}, "Average of history")'])


def feature_func(k):
    decls = [f"//@function Normalises x into 0..1 over a window.",
             f"//@param x The series.", f"//@param n The window.",
             f"normalize_{k}(float x, int n) =>",
             "    lo = ta.lowest(x, n)", "    hi = ta.highest(x, n)",
             "    hi == lo ? 0.5 : (x - lo) / (hi - lo)", ""]
    return (decls, [f"norm_{k} = normalize_{k}(value, 100)"], [f'plot(norm_{k}, "Normalised")'])


def feature_bg(k):
    return ([], [], ["bgcolor(value > value[1] ? color.new(color.green, 92) : color.new(color.red, 92))"])


FEATURES = [feature_var_counter, feature_alert, feature_label, feature_table, feature_udt,
            feature_switch, feature_loop, feature_array, feature_func, feature_bg]


def indicator(rng, idx, kernel):
    name, title, expr, osc = kernel
    version = rng.choice([5, 6, 6])
    style = rng.choice(["normal", "normal", "tight"])
    src = rng.choice(SOURCES)
    length = rng.choice([5, 9, 10, 14, 20, 21, 34, 50])
    lines = [f"//@version={version}", f"// {title}: generated corpus script #{idx}"]
    overlay = "false" if osc else "true"
    decl = f'indicator("{title} {idx}", overlay = {overlay})'
    if rng.random() < 0.3:
        decl = f'indicator(title = "{title} {idx}", shorttitle = "{name.upper()}",\n     overlay = {overlay}, precision = 2)'
    lines.append(decl)
    lines.append("")
    lines.append(f'len = input.int({length}, "Length", minval = 1)')
    lines.append(f'src = input.source({src}, "Source")')
    lines.append("")
    chosen = rng.sample(FEATURES, rng.randint(1, 3))
    decls, body, plots = [], [], []
    for f in chosen:
        d, b, p = f(idx)
        decls += d
        body += b
        plots += p
    lines += decls
    if rng.random() < 0.4:
        # wrapped after an operator, continuation indented by 5
        lines.append(f"value = {expr} *")
        lines.append("     1.0")
    else:
        lines.append(f"value = {expr}")
    lines += body
    lines.append("")
    color = rng.choice(["color.blue", "color.orange", "#FF9800", "color.new(color.teal, 20)", "#2962FFCC"])
    if rng.random() < 0.5:
        lines.append(f'plot(value, "{title}", color = {color}, linewidth = 2)')
    else:
        lines.append(f'plot(value, "{title}",\n  color = value > value[1] ? {color} : color.gray,\n  linewidth = 2)')
    if osc:
        lines.append(f'hline(0, "Zero", color = color.gray)')
    lines += plots
    text = "\n".join(lines) + "\n"
    return spaced(style, text) if version == 5 else text


def strategy(rng, idx, kernel):
    name, title, expr, osc = kernel
    version = rng.choice([5, 6, 6, 6])
    src = rng.choice(SOURCES)
    length = rng.choice([10, 14, 20, 30])
    qty = rng.choice(["strategy.percent_of_equity, default_qty_value = 10", "strategy.fixed, default_qty_value = 1",
                      "strategy.cash, default_qty_value = 1000"])
    lines = [f"//@version={version}", f"// {title} strategy: generated corpus script #{idx}"]
    lines.append(f'strategy("{title} strategy {idx}", overlay = {"false" if osc else "true"}, initial_capital = 10000,')
    lines.append(f"     default_qty_type = {qty}, commission_type = strategy.commission.percent,")
    lines.append(f"     commission_value = {rng.choice(['0.0', '0.05', '0.1'])})")
    lines.append("")
    lines.append(f'len = input.int({length}, "Length")')
    lines.append(f"src = {src}")
    lines.append(f"value = {expr}")
    if osc:
        lo, hi = rng.choice([(30, 70), (20, 80), (-100, 100), (-1, 1)])
        lines += [f"longSignal = ta.crossover(value, {lo})", f"shortSignal = ta.crossunder(value, {hi})"]
    else:
        lines += ["longSignal = ta.crossover(close, value)", "shortSignal = ta.crossunder(close, value)"]
    use_when = version == 5 and rng.random() < 0.5
    if use_when:
        lines += ['strategy.entry("Long", strategy.long, when = longSignal)',
                  'strategy.entry("Short", strategy.short, when = shortSignal)']
    else:
        lines += ["if longSignal", '    strategy.entry("Long", strategy.long)',
                  "else if shortSignal", '    strategy.entry("Short", strategy.short)']
    exit_kind = rng.choice(["none", "bracket", "trail", "time"])
    if exit_kind == "bracket":
        lines += ["if strategy.position_size > 0",
                  '    strategy.exit("Long exit", "Long", profit = 400, loss = 200)',
                  "if strategy.position_size < 0",
                  '    strategy.exit("Short exit", "Short", profit = 400, loss = 200)']
    elif exit_kind == "trail":
        lines += ['strategy.exit("Trail L", "Long", trail_points = 300, trail_offset = 100)',
                  'strategy.exit("Trail S", "Short", trail_points = 300, trail_offset = 100)']
    elif exit_kind == "time":
        lines += ["var int entryBar = na", "if strategy.position_size != 0 and strategy.position_size[1] == 0",
                  "    entryBar := bar_index",
                  "if strategy.position_size != 0 and bar_index - entryBar >= 10",
                  '    strategy.close_all(comment = "time stop")']
    lines.append("")
    lines.append(f'plot(value, "{title}")')
    return "\n".join(lines) + "\n"


def main():
    rng = random.Random(20261121)
    n = 0
    for rep in range(3):
        for kernel in KERNELS:
            n += 1
            make = strategy if rep == 2 else indicator
            text = make(rng, n, kernel)
            kind = "strategy" if make is strategy else "indicator"
            path = os.path.join(HERE, f"gen_{n:03d}_{kernel[0]}_{kind}.pine")
            with open(path, "w") as fh:
                fh.write(text)
    print(f"wrote {n} scripts")


if __name__ == "__main__":
    main()
