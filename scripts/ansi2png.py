#!/usr/bin/env python3
"""Render a terminal capture with colours (`tmux capture-pane -e -p`) to a PNG image.

Usage: scripts/ansi2png.py CAPTURE.ansi OUT.png [COLUMNS ROWS]

A developer tool for screenshots of `npuzzle play` (see scripts/screenshot-play); it needs
Pillow (`pip install pillow`) and the DejaVu Sans Mono font. It understands the SGR escapes
tmux writes: bold, reverse, underline, the 16 and 256 colours and 24-bit colours.
"""

import re
import sys

from PIL import Image, ImageDraw, ImageFont

FONT = "/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf"
FONT_BOLD = "/usr/share/fonts/truetype/dejavu/DejaVuSansMono-Bold.ttf"
SIZE = 16
FG = (204, 204, 204)
BG = (24, 24, 28)
BASE16 = [
    (0, 0, 0), (205, 49, 49), (13, 188, 121), (229, 229, 16),
    (36, 114, 200), (188, 63, 188), (17, 168, 205), (229, 229, 229),
    (102, 102, 102), (241, 76, 76), (35, 209, 139), (245, 245, 67),
    (59, 142, 234), (214, 112, 214), (41, 184, 219), (255, 255, 255),
]


def palette(n):
    if n < 16:
        return BASE16[n]
    if n < 232:
        n -= 16
        levels = [0, 95, 135, 175, 215, 255]
        return (levels[n // 36], levels[n // 6 % 6], levels[n % 6])
    g = 8 + 10 * (n - 232)
    return (g, g, g)


def parse(text, cols, rows):
    """Cells as (char, fg, bg, bold, underline) per row."""
    blank = (" ", None, None, False, False)
    grid = [[blank] * cols for _ in range(rows)]
    state = {"fg": None, "bg": None, "bold": False, "rev": False, "ul": False}
    for y, line in enumerate(text.split("\n")[:rows]):
        x = 0
        for token in re.split(r"(\x1b\[[0-9;:]*m)", line):
            if token.startswith("\x1b["):
                sgr(state, [int(p) if p else 0 for p in re.split(r"[;:]", token[2:-1])])
                continue
            for ch in token:
                if x >= cols:
                    break
                fg, bg = state["fg"], state["bg"]
                if state["rev"]:
                    fg, bg = (bg or BG), (fg or FG)
                grid[y][x] = (ch, fg, bg, state["bold"], state["ul"])
                x += 1
    return grid


def sgr(state, params):
    i = 0
    while i < len(params):
        p = params[i]
        if p == 0:
            state.update(fg=None, bg=None, bold=False, rev=False, ul=False)
        elif p == 1:
            state["bold"] = True
        elif p == 22:
            state["bold"] = False
        elif p == 4:
            state["ul"] = True
        elif p == 24:
            state["ul"] = False
        elif p == 7:
            state["rev"] = True
        elif p == 27:
            state["rev"] = False
        elif 30 <= p <= 37:
            state["fg"] = BASE16[p - 30]
        elif 90 <= p <= 97:
            state["fg"] = BASE16[p - 90 + 8]
        elif 40 <= p <= 47:
            state["bg"] = BASE16[p - 40]
        elif 100 <= p <= 107:
            state["bg"] = BASE16[p - 100 + 8]
        elif p == 39:
            state["fg"] = None
        elif p == 49:
            state["bg"] = None
        elif p in (38, 48) and i + 2 < len(params) and params[i + 1] == 5:
            state["fg" if p == 38 else "bg"] = palette(params[i + 2])
            i += 2
        elif p in (38, 48) and i + 4 < len(params) and params[i + 1] == 2:
            state["fg" if p == 38 else "bg"] = tuple(params[i + 2:i + 5])
            i += 4
        i += 1


def render(grid, out):
    font = ImageFont.truetype(FONT, SIZE)
    bold = ImageFont.truetype(FONT_BOLD, SIZE)
    left, top, right, bottom = font.getbbox("M")
    cw = round(font.getlength("M"))
    ch = round(SIZE * 1.25)
    pad = 12
    rows, cols = len(grid), len(grid[0])
    img = Image.new("RGB", (cols * cw + 2 * pad, rows * ch + 2 * pad), BG)
    draw = ImageDraw.Draw(img)
    for y, row in enumerate(grid):
        for x, (c, fg, bg, b, ul) in enumerate(row):
            px, py = pad + x * cw, pad + y * ch
            if bg:
                draw.rectangle([px, py, px + cw - 1, py + ch - 1], fill=bg)
            colour = fg or FG
            if c == "█":
                draw.rectangle([px, py, px + cw - 1, py + ch - 1], fill=colour)
            elif c == "▀":
                draw.rectangle([px, py, px + cw - 1, py + ch // 2 - 1], fill=colour)
            elif c == "▄":
                draw.rectangle([px, py + ch // 2, px + cw - 1, py + ch - 1], fill=colour)
            elif c in "─━":
                draw.line([px, py + ch // 2, px + cw, py + ch // 2], fill=colour, width=1 if c == "─" else 3)
            elif c in "│┃":
                draw.line([px + cw // 2, py, px + cw // 2, py + ch], fill=colour, width=1 if c == "│" else 3)
            elif c != " ":
                draw.text((px, py + (ch - SIZE) // 2 - 1), c, font=bold if b else font, fill=colour)
            if ul:
                draw.line([px, py + ch - 2, px + cw, py + ch - 2], fill=colour)
    img.save(out)


def main():
    src, out = sys.argv[1], sys.argv[2]
    cols = int(sys.argv[3]) if len(sys.argv) > 3 else 80
    rows = int(sys.argv[4]) if len(sys.argv) > 4 else 24
    with open(src, encoding="utf-8") as f:
        text = f.read()
    render(parse(text, cols, rows), out)


if __name__ == "__main__":
    main()
