"""The edit script between two line sequences, chosen the way GNU diff chooses it.

Many edit scripts have the same (minimal) length; users compare our output with GNU's,
so this module follows the GNU diffutils pipeline step by step:

1. trim the common prefix and suffix, keeping `horizon` lines of each (the context
   length) so that changes may still slide into them;
2. give each distinct line an equivalence class (after -b / -i normalisation);
3. discard lines that match nothing in the other file ("confusing lines") and so
   cannot be part of any common subsequence;
4. Myers' O(ND) divide and conquer on what is left (midpoint snakes, with the
   "too expensive" cut-off that keeps huge inputs near-linear);
5. slide each run of changes as far down as it goes, merging runs where it can,
   then back to line up with a change in the other file;
6. read off the changes as (first line left, first line right, deleted, inserted).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Hashable, Sequence


@dataclass(frozen=True)
class Change:
    """A block of `deleted` left lines starting at `left` replaced by `inserted`
    right lines starting at `right` (0-based line indexes)."""
    left: int
    right: int
    deleted: int
    inserted: int


def edit_script(raw0: Sequence[Hashable], raw1: Sequence[Hashable],
                keys0: Sequence[Hashable], keys1: Sequence[Hashable], horizon: int = 0) -> list[Change]:
    """Changes turning file 0 into file 1.

    `raw*` identify lines byte for byte (used to trim the identical ends, as GNU does
    on raw bytes); `keys*` decide equality for the diff itself (after -b / -i)."""
    n0, n1 = len(raw0), len(raw1)
    prefix = _common_prefix(raw0, raw1)
    kept_prefix = max(0, prefix - horizon)
    suffix = _common_suffix(raw0, raw1, min(n0, n1) - kept_prefix)
    kept_suffix = max(0, suffix - horizon)
    classes0, classes1 = _equivalence_classes(keys0[kept_prefix:n0 - kept_suffix],
                                              keys1[kept_prefix:n1 - kept_suffix])
    changed0, changed1 = _compare(classes0, classes1)
    _shift_boundaries(classes0, changed0, changed1)
    _shift_boundaries(classes1, changed1, changed0)
    return [Change(c.left + kept_prefix, c.right + kept_prefix, c.deleted, c.inserted)
            for c in _build_script(changed0, changed1, len(classes0), len(classes1))]


def _common_prefix(a: Sequence[Hashable], b: Sequence[Hashable]) -> int:
    limit = min(len(a), len(b))
    count = 0
    while count < limit and a[count] == b[count]:
        count += 1
    return count


def _common_suffix(a: Sequence[Hashable], b: Sequence[Hashable], limit: int) -> int:
    count = 0
    while count < limit and a[len(a) - 1 - count] == b[len(b) - 1 - count]:
        count += 1
    return count


def _equivalence_classes(keys0: Sequence[Hashable], keys1: Sequence[Hashable]) -> tuple[list[int], list[int]]:
    """Number the distinct keys from 1, shared by both files."""
    ids: dict[Hashable, int] = {}
    classes0 = [ids.setdefault(key, len(ids) + 1) for key in keys0]
    classes1 = [ids.setdefault(key, len(ids) + 1) for key in keys1]
    return classes0, classes1


# -- 3 + 4: discard confusing lines, then Myers on the rest ---------------------------------

def _compare(classes0: list[int], classes1: list[int]) -> tuple[list[int], list[int]]:
    """Changed flags per line of each side. The flag lists carry GNU's sentinels:
    index p + 1 holds line p, index 0 stands for line -1, and three zeros follow."""
    changed0 = [0] * (len(classes0) + 4)
    changed1 = [0] * (len(classes1) + 4)
    discards0, discards1 = _discardable(classes0, classes1), _discardable(classes1, classes0)
    kept0 = [i for i, d in enumerate(discards0) if not d]
    kept1 = [i for i, d in enumerate(discards1) if not d]
    for i, d in enumerate(discards0):
        if d:
            changed0[i + 1] = 1
    for i, d in enumerate(discards1):
        if d:
            changed1[i + 1] = 1
    xv = [classes0[i] for i in kept0]
    yv = [classes1[i] for i in kept1]
    deleted, inserted = _MyersSearch(xv, yv).run()
    for x in deleted:
        changed0[kept0[x] + 1] = 1
    for y in inserted:
        changed1[kept1[y] + 1] = 1
    return changed0, changed1


def _discardable(classes: list[int], other: list[int]) -> list[int]:
    """1 for lines that match nothing in the other file, after GNU's rules for lines
    that match very many (those are discarded only inside runs of discards)."""
    counts: dict[int, int] = {}
    for cls in other:
        counts[cls] = counts.get(cls, 0) + 1
    many = 5 << _quarter_steps(len(classes) // 64)
    discards = []
    for cls in classes:
        matches = counts.get(cls, 0)
        discards.append(1 if matches == 0 else 2 if matches > many else 0)
    _settle_provisional(discards)
    return discards


def _quarter_steps(value: int) -> int:
    """How many times `value` can be divided by 4 and stay above 0: GNU doubles its
    thresholds (lines that match too many, runs long enough to cancel) once per step."""
    steps = 0
    while (value := value >> 2) > 0:
        steps += 1
    return steps


def _settle_provisional(discards: list[int]) -> None:
    """Resolve provisional (2) discards: keep them only well inside runs of discards."""
    end = len(discards)
    i = 0
    while i < end:
        if discards[i] == 2:
            discards[i] = 0
        elif discards[i] != 0:
            i = _settle_run(discards, i)
        i += 1


def _settle_run(discards: list[int], i: int) -> int:
    """Settle the run starting at the definite discard `i`; returns its last index."""
    end = len(discards)
    j = i
    provisional = 0
    while j < end and discards[j] != 0:
        if discards[j] == 2:
            provisional += 1
        j += 1
    while j > i and discards[j - 1] == 2:
        j -= 1
        discards[j] = 0
        provisional -= 1
    length = j - i
    if provisional * 4 > length:
        for k in range(i, j):
            if discards[k] == 2:
                discards[k] = 0
        return i + length - 1
    minimum = (1 << _quarter_steps(length >> 2)) + 1
    k = consec = 0
    while k < length:  # cancel subruns of `minimum` or more provisionals
        if discards[i + k] != 2:
            consec = 0
        else:
            consec += 1
            if consec == minimum:
                k -= consec
            elif consec > minimum:
                discards[i + k] = 0
        k += 1
    _trim_run_edge(discards, i, length, 1)
    last = i + length - 1
    _trim_run_edge(discards, last, length, -1)
    return last


def _trim_run_edge(discards: list[int], origin: int, length: int, step: int) -> None:
    """From one end of a run, cancel provisionals until 3 definite discards in a row
    (or a definite one at least 8 lines in)."""
    consec = 0
    for k in range(length):
        at = origin + step * k
        if k >= 8 and discards[at] == 1:
            break
        if discards[at] == 2:
            consec = 0
            discards[at] = 0
        elif discards[at] == 0:
            consec = 0
        else:
            consec += 1
        if consec == 3:
            break


# GNU gives up looking for a minimal script in a region once its edit cost passes
# max(4096, ~sqrt(size)). C does that work in a blink; pure Python takes ~100x longer,
# so once a comparison has visited WORK_BUDGET diagonals (a second or two) the cut-off
# drops to FALLBACK_COST. Inputs below the budget get GNU's exact script.
WORK_BUDGET = 3_000_000
FALLBACK_COST = 32


class _MyersSearch:
    """Myers' divide and conquer with midpoint snakes (linear space)."""

    def __init__(self, xv: list[int], yv: list[int]) -> None:
        self.xv, self.yv = xv, yv
        self.offset = len(yv) + 1
        size = len(xv) + len(yv) + 3
        self.fd = [0] * size
        self.bd = [0] * size
        diags = len(xv) + len(yv) + 3
        expensive = 1
        while diags:
            diags >>= 2
            expensive <<= 1
        self.too_expensive = max(4096, expensive)
        self.work = 0

    def run(self) -> tuple[list[int], list[int]]:
        """The deleted left indexes and the inserted right indexes."""
        deleted: list[int] = []
        inserted: list[int] = []
        stack = [(0, len(self.xv), 0, len(self.yv), False)]
        while stack:
            xoff, xlim, yoff, ylim, minimal = stack.pop()
            xoff, xlim, yoff, ylim = self._slide(xoff, xlim, yoff, ylim)
            if xoff == xlim:
                inserted.extend(range(yoff, ylim))
            elif yoff == ylim:
                deleted.extend(range(xoff, xlim))
            else:
                xmid, ymid, lo_minimal, hi_minimal = self._midpoint(xoff, xlim, yoff, ylim, minimal)
                stack.append((xmid, xlim, ymid, ylim, hi_minimal))
                stack.append((xoff, xmid, yoff, ymid, lo_minimal))
        return deleted, inserted

    def _slide(self, xoff: int, xlim: int, yoff: int, ylim: int) -> tuple[int, int, int, int]:
        xv, yv = self.xv, self.yv
        while xoff < xlim and yoff < ylim and xv[xoff] == yv[yoff]:
            xoff += 1
            yoff += 1
        while xoff < xlim and yoff < ylim and xv[xlim - 1] == yv[ylim - 1]:
            xlim -= 1
            ylim -= 1
        return xoff, xlim, yoff, ylim

    def _midpoint(self, xoff: int, xlim: int, yoff: int, ylim: int,
                  find_minimal: bool) -> tuple[int, int, bool, bool]:
        """A point on a minimal path, found by searching from both corners at once.

        Diagonal d (x - y) lives at index d + offset of `fd` (furthest x reached going
        forward) and `bd` (least x reached going backward)."""
        xv, yv, fd, bd, off = self.xv, self.yv, self.fd, self.bd, self.offset
        kmin, kmax = xoff - ylim + off, xlim - yoff + off  # the valid diagonals, as indexes
        fmid, bmid = xoff - yoff + off, xlim - ylim + off
        fmin = fmax = fmid
        bmin = bmax = bmid
        odd = (fmid - bmid) & 1
        fd[fmid] = xoff
        bd[bmid] = xlim
        cost = 0
        far = xlim + ylim + 1  # "not reached yet" for the backward search
        while True:
            cost += 1
            if fmin > kmin:
                fmin -= 1
                fd[fmin - 1] = -1
            else:
                fmin += 1
            if fmax < kmax:
                fmax += 1
                fd[fmax + 1] = -1
            else:
                fmax -= 1
            for k in range(fmax, fmin - 1, -2):
                tlo, thi = fd[k - 1], fd[k + 1]
                x = thi if tlo < thi else tlo + 1
                y = x - k + off
                while x < xlim and y < ylim and xv[x] == yv[y]:
                    x += 1
                    y += 1
                fd[k] = x
                if odd and bmin <= k <= bmax and bd[k] <= x:
                    return x, y, True, True
            if bmin > kmin:
                bmin -= 1
                bd[bmin - 1] = far
            else:
                bmin += 1
            if bmax < kmax:
                bmax += 1
                bd[bmax + 1] = far
            else:
                bmax -= 1
            for k in range(bmax, bmin - 1, -2):
                tlo, thi = bd[k - 1], bd[k + 1]
                x = tlo if tlo < thi else thi - 1
                y = x - k + off
                while xoff < x and yoff < y and xv[x - 1] == yv[y - 1]:
                    x -= 1
                    y -= 1
                bd[k] = x
                if not odd and fmin <= k <= fmax and x <= fd[k]:
                    return x, y, True, True
            self._spend(fmax - fmin + bmax - bmin)
            if not find_minimal and cost >= self.too_expensive:
                return self._best_guess(xoff, xlim, yoff, ylim, (fmin, fmax, bmin, bmax))

    def _spend(self, diagonals: int) -> None:
        """Count the work; past the budget, give up on minimality sooner (see WORK_BUDGET)."""
        self.work += diagonals
        if self.work > WORK_BUDGET:
            self.too_expensive = min(self.too_expensive, FALLBACK_COST)

    def _best_guess(self, xoff: int, xlim: int, yoff: int, ylim: int,
                    bounds: tuple[int, int, int, int]) -> tuple[int, int, bool, bool]:
        """Gave up on a minimal path: split at the diagonal that got furthest so far."""
        fd, bd, off = self.fd, self.bd, self.offset
        fmin, fmax, bmin, bmax = bounds
        fxybest, fxbest = -1, 0
        for k in range(fmax, fmin - 1, -2):
            x = min(fd[k], xlim)
            y = x - k + off
            if ylim < y:
                x, y = ylim + k - off, ylim
            if fxybest < x + y:
                fxybest, fxbest = x + y, x
        bxybest, bxbest = xlim + ylim + 1, 0
        for k in range(bmax, bmin - 1, -2):
            x = max(xoff, bd[k])
            y = x - k + off
            if y < yoff:
                x, y = yoff + k - off, yoff
            if x + y < bxybest:
                bxybest, bxbest = x + y, x
        if (xlim + ylim) - bxybest < fxybest - (xoff + yoff):
            return fxbest, fxybest - fxbest, True, False
        return bxbest, bxybest - bxbest, False, True


# -- 5: slide runs of changes ---------------------------------------------------------------

def _shift_boundaries(classes: list[int], changed: list[int], other: list[int]) -> None:
    """Move each run of changes down as far as lines allow (merging with runs below),
    then back up to end where a run in the other file ends, if it can.
    `changed[p + 1]` is line p's flag (see `_compare`)."""
    i = j = 0
    i_end = len(classes)
    while True:
        while i < i_end and not changed[i + 1]:
            j = _skip_forward_past_run(other, j)
            i += 1
        if i == i_end:
            return
        start = i
        i += 1
        while changed[i + 1]:
            i += 1
        while other[j + 1]:
            j += 1
        while True:
            runlength = i - start
            while start and classes[start - 1] == classes[i - 1]:
                start -= 1
                changed[start + 1] = 1
                i -= 1
                changed[i + 1] = 0
                while changed[start]:
                    start -= 1
                j = _back_to_unchanged(other, j)
            corresponding = i if other[j] else i_end
            while i != i_end and classes[start] == classes[i]:
                changed[start + 1] = 0
                start += 1
                changed[i + 1] = 1
                i += 1
                while changed[i + 1]:
                    i += 1
                j += 1
                while other[j + 1]:
                    corresponding = i
                    j += 1
            if runlength == i - start:
                break
        while corresponding < i:
            start -= 1
            changed[start + 1] = 1
            i -= 1
            changed[i + 1] = 0
            j = _back_to_unchanged(other, j)


def _skip_forward_past_run(flags: list[int], j: int) -> int:
    """GNU's `while (other_changed[j++]);`: step past changed lines and one unchanged."""
    while True:
        value = flags[j + 1]
        j += 1
        if not value:
            return j


def _back_to_unchanged(flags: list[int], j: int) -> int:
    """GNU's `while (other_changed[--j]);`."""
    j -= 1
    while flags[j + 1]:
        j -= 1
    return j


# -- 6: the script --------------------------------------------------------------------------

def _build_script(changed0: list[int], changed1: list[int], n0: int, n1: int) -> list[Change]:
    script: list[Change] = []
    i0 = i1 = 0
    while i0 < n0 or i1 < n1:
        if changed0[i0 + 1] or changed1[i1 + 1]:
            line0, line1 = i0, i1
            while changed0[i0 + 1]:
                i0 += 1
            while changed1[i1 + 1]:
                i1 += 1
            script.append(Change(line0, line1, i0 - line0, i1 - line1))
        i0 += 1
        i1 += 1
    return script
