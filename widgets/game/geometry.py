"""Where things are drawn on the board, and what a click at (x, y) hits. Pure functions.

The board is four market regions in a 2 × 2 grid (data units; y points up). In each region the
visible stall's squares are laid out row by row as on the Markets sheet (RULINGS R3: rows top to
bottom, each row centred, so the pyramids come out as pyramids), the four gift cards sit to the
right (the upper card above the three lower ones) and the reserve below them.
"""

from __future__ import annotations

from dataclasses import dataclass

from nefertiti_core.engine import options as O
from nefertiti_core.engine import rules as R

REGION_W, REGION_H = 12.0, 9.5
GAP = 0.5
ORIGINS = {
    R.GIZEH: (0.0, REGION_H + GAP),
    R.AKHET_ATON: (REGION_W + GAP, REGION_H + GAP),
    R.ABOU_SIMBEL: (0.0, 0.0),
    R.LOUQSOR: (REGION_W + GAP, 0.0),
}
WIDTH = 2 * REGION_W + GAP
HEIGHT = 2 * REGION_H + GAP
SQUARE = 0.9  # drawn size of a square; cells are 1 apart
CARD_W, CARD_H = 1.3, 1.7
STALL_TOP = 7.6  # y of the first row's centre, from the region's bottom
ROW_STEP = 1.15
STALL_CENTRE_X = 3.0  # x of the stall's centre line, from the region's left


@dataclass(frozen=True)
class SquareCell:
    market: int
    index: int
    option: int  # the PLACE option id of this square
    x: float
    y: float
    value: int
    symbol: str


@dataclass(frozen=True)
class CardCell:
    market: int
    slot: int  # 0 upper, 1-3 lower
    x: float
    y: float


def squares(sides) -> list[SquareCell]:
    """Every visible stall's squares, given each market's visible side (state.side)."""
    cells = []
    for m in range(4):
        stall = R.STALLS[m * 2 + sides[m]]
        ox, oy = ORIGINS[m]
        rows: dict[int, list[R.Square]] = {}
        for sq in stall.squares:
            rows.setdefault(sq.row, []).append(sq)
        for r, row in rows.items():
            for c, sq in enumerate(row):
                x = ox + STALL_CENTRE_X + (c - (len(row) - 1) / 2)
                y = oy + STALL_TOP - r * ROW_STEP
                option = O.place_id(m, sides[m], sq.index)
                cells.append(SquareCell(m, sq.index, option, x, y, sq.value, sq.symbol))
    return cells


def cards() -> list[CardCell]:
    out = []
    for m in range(4):
        ox, oy = ORIGINS[m]
        out.append(CardCell(m, 0, ox + 8.6, oy + 7.3))
        for slot in (1, 2, 3):
            out.append(CardCell(m, slot, ox + 6.5 + (slot - 1) * 1.4 + 0.7, oy + 5.2))
    return out


def reserve_xy(market: int) -> tuple[float, float]:
    ox, oy = ORIGINS[market]
    return ox + 8.6, oy + 3.2


def title_xy(market: int) -> tuple[float, float]:
    ox, oy = ORIGINS[market]
    return ox + 0.3, oy + REGION_H - 0.45


def status_xy(market: int) -> tuple[float, float]:
    ox, oy = ORIGINS[market]
    return ox + 0.3, oy + 0.35


def square_at(cells: list[SquareCell], x: float, y: float) -> SquareCell | None:
    """The square under a click, if any (the drawn square, not the gap around it)."""
    half = SQUARE / 2
    for cell in cells:
        if abs(x - cell.x) <= half and abs(y - cell.y) <= half:
            return cell
    return None


def card_at(cells: list[CardCell], x: float, y: float) -> CardCell | None:
    for cell in cells:
        if abs(x - cell.x) <= CARD_W / 2 and abs(y - cell.y) <= CARD_H / 2:
            return cell
    return None
