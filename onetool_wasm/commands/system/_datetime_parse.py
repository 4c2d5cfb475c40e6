"""`date -d STRING`: gnulib's parse_datetime, ported (not a command).

The string is a list of items in any order, as GNU reads them: calendar dates
(`2024-01-15`, `1/15/2024`, `Jan 15 2024`, `15-Jan-2024`), times of day (`10:30`,
`10:30:00.5`, `10am`, with a zone offset `+05:30`), `YYYY-MM-DDTHH:MM:SS`, zones (`UTC`,
`Z`, `EST`, `+0100`, military letters), days of the week (`monday`, `next fri`), relative
moves (`2 days ago`, `+3 hours`, `last week`, `tomorrow`, `now`), a bare number (`1030` is
a time, `20240115` a date, a year after a date), `@SECONDS`, and a leading `TZ="ZONE"`.
Items missing from the string come from now, as GNU's rules say: a date without a time
is at midnight, relative moves alone keep the time of day, a day of the week without a
date is the next such day (today included). Anything else is invalid (None).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

from ._datetime_format import (BILLION, DAY, FixedZone, Zone, broken_down, days_in_month,
                               normalized_days, zone_from_tz)

# Token types (single characters such as ':' ',' '/' '@' stand for themselves).
UNUMBER, SNUMBER, UDECIMAL, SDECIMAL = "UNUMBER", "SNUMBER", "UDECIMAL", "SDECIMAL"
MONTH, DAY_NAME, ZONE, DAYZONE, DST, MERIDIAN = "MONTH", "DAY", "ZONE", "DAYZONE", "DST", "MERIDIAN"
YEAR_UNIT, MONTH_UNIT, DAY_UNIT, HOUR_UNIT, MINUTE_UNIT, SEC_UNIT = (
    "YEAR_UNIT", "MONTH_UNIT", "DAY_UNIT", "HOUR_UNIT", "MINUTE_UNIT", "SEC_UNIT")
DAY_SHIFT, ORDINAL, AGO, END, BAD = "DAY_SHIFT", "ORDINAL", "AGO", "END", "?"
UNITS = (YEAR_UNIT, MONTH_UNIT, DAY_UNIT, HOUR_UNIT, MINUTE_UNIT, SEC_UNIT)
MER24, MERAM, MERPM = 2, 0, 1
HOUR = 3600

_MONTHS_AND_DAYS = {
    "JANUARY": (MONTH, 1), "FEBRUARY": (MONTH, 2), "MARCH": (MONTH, 3), "APRIL": (MONTH, 4), "MAY": (MONTH, 5),
    "JUNE": (MONTH, 6), "JULY": (MONTH, 7), "AUGUST": (MONTH, 8), "SEPTEMBER": (MONTH, 9), "SEPT": (MONTH, 9),
    "OCTOBER": (MONTH, 10), "NOVEMBER": (MONTH, 11), "DECEMBER": (MONTH, 12),
    "SUNDAY": (DAY_NAME, 0), "MONDAY": (DAY_NAME, 1), "TUESDAY": (DAY_NAME, 2), "TUES": (DAY_NAME, 2),
    "WEDNESDAY": (DAY_NAME, 3), "WEDNES": (DAY_NAME, 3), "THURSDAY": (DAY_NAME, 4), "THUR": (DAY_NAME, 4),
    "THURS": (DAY_NAME, 4), "FRIDAY": (DAY_NAME, 5), "SATURDAY": (DAY_NAME, 6),
}
_UNIVERSAL_ZONES = {"GMT": 0, "UT": 0, "UTC": 0}
_ZONES = {
    "WET": (ZONE, 0), "WEST": (DAYZONE, 0), "BST": (DAYZONE, 0), "ART": (ZONE, -3 * HOUR),
    "BRT": (ZONE, -3 * HOUR), "BRST": (DAYZONE, -3 * HOUR), "NST": (ZONE, -(3 * HOUR + 1800)),
    "NDT": (DAYZONE, -(3 * HOUR + 1800)), "AST": (ZONE, -4 * HOUR), "ADT": (DAYZONE, -4 * HOUR),
    "CLT": (ZONE, -4 * HOUR), "CLST": (DAYZONE, -4 * HOUR), "EST": (ZONE, -5 * HOUR),
    "EDT": (DAYZONE, -5 * HOUR), "CST": (ZONE, -6 * HOUR), "CDT": (DAYZONE, -6 * HOUR),
    "MST": (ZONE, -7 * HOUR), "MDT": (DAYZONE, -7 * HOUR), "PST": (ZONE, -8 * HOUR),
    "PDT": (DAYZONE, -8 * HOUR), "AKST": (ZONE, -9 * HOUR), "AKDT": (DAYZONE, -9 * HOUR),
    "HST": (ZONE, -10 * HOUR), "HAST": (ZONE, -10 * HOUR), "HADT": (DAYZONE, -10 * HOUR),
    "SST": (ZONE, -12 * HOUR), "WAT": (ZONE, HOUR), "CET": (ZONE, HOUR), "CEST": (DAYZONE, HOUR),
    "MET": (ZONE, HOUR), "MEZ": (ZONE, HOUR), "MEST": (DAYZONE, HOUR), "MESZ": (DAYZONE, HOUR),
    "EET": (ZONE, 2 * HOUR), "EEST": (DAYZONE, 2 * HOUR), "CAT": (ZONE, 2 * HOUR), "SAST": (ZONE, 2 * HOUR),
    "EAT": (ZONE, 3 * HOUR), "MSK": (ZONE, 3 * HOUR), "MSD": (DAYZONE, 3 * HOUR),
    "IST": (ZONE, 5 * HOUR + 1800), "SGT": (ZONE, 8 * HOUR), "KST": (ZONE, 9 * HOUR),
    "JST": (ZONE, 9 * HOUR), "GST": (ZONE, 10 * HOUR), "NZST": (ZONE, 12 * HOUR), "NZDT": (DAYZONE, 12 * HOUR),
}
_TIME_UNITS = {"YEAR": (YEAR_UNIT, 1), "MONTH": (MONTH_UNIT, 1), "FORTNIGHT": (DAY_UNIT, 14),
               "WEEK": (DAY_UNIT, 7), "DAY": (DAY_UNIT, 1), "HOUR": (HOUR_UNIT, 1), "MINUTE": (MINUTE_UNIT, 1),
               "MIN": (MINUTE_UNIT, 1), "SECOND": (SEC_UNIT, 1), "SEC": (SEC_UNIT, 1)}
_RELATIVE = {"TOMORROW": (DAY_SHIFT, 1), "YESTERDAY": (DAY_SHIFT, -1), "TODAY": (DAY_SHIFT, 0),
             "NOW": (DAY_SHIFT, 0), "LAST": (ORDINAL, -1), "THIS": (ORDINAL, 0), "NEXT": (ORDINAL, 1),
             "FIRST": (ORDINAL, 1), "THIRD": (ORDINAL, 3), "FOURTH": (ORDINAL, 4), "FIFTH": (ORDINAL, 5),
             "SIXTH": (ORDINAL, 6), "SEVENTH": (ORDINAL, 7), "EIGHTH": (ORDINAL, 8), "NINTH": (ORDINAL, 9),
             "TENTH": (ORDINAL, 10), "ELEVENTH": (ORDINAL, 11), "TWELFTH": (ORDINAL, 12),
             "AGO": (AGO, -1), "HENCE": (AGO, 1)}
_MERIDIANS = {"AM": MERAM, "A.M.": MERAM, "PM": MERPM, "P.M.": MERPM}
# Military zones: A-I +1..+9, K-M +10..+12, N-Y -1..-12, Z UTC; T is a token of its own (a
# zone, or the ISO 8601 separator), J is no zone.
_MILITARY = {letter: HOUR * hours for letter, hours in zip("ABCDEFGHIKLM", range(1, 13))}
_MILITARY.update({letter: -HOUR * hours for letter, hours in zip("NOPQRSUVWXY", (1, 2, 3, 4, 5, 6, 8, 9, 10, 11, 12))})
_MILITARY["Z"] = 0


@dataclass
class Token:
    kind: str
    value: int = 0
    digits: int = 0
    negative: bool = False
    ns: int = 0  # decimals: value holds the whole seconds (floor), ns the fraction


def _lookup(word: str, local_names: tuple[str, ...]) -> Token:
    """gnulib's lookup_word: meridians, months and days (3-letter abbreviations), zones,
    DST, units (and their plurals), relative words, military letters, dotted zones."""
    word = word.upper()
    if word in _MERIDIANS:
        return Token(MERIDIAN, _MERIDIANS[word])
    abbreviated = len(word) == 3 or (len(word) == 4 and word[3] == ".")
    for name, (kind, value) in _MONTHS_AND_DAYS.items():
        if (name[:3] == word[:3]) if abbreviated else (name == word):
            return Token(kind, value)
    zone = _zone_word(word, local_names)
    if zone is not None:
        return zone
    if word == "DST":
        return Token(DST)
    if word in _TIME_UNITS:
        return Token(*_TIME_UNITS[word])
    if word.endswith("S") and word[:-1] in _TIME_UNITS:
        return Token(*_TIME_UNITS[word[:-1]])
    if word in _RELATIVE:
        return Token(*_RELATIVE[word])
    if len(word) == 1:
        if word == "T":
            return Token(word)
        if word in _MILITARY:
            return Token(ZONE, _MILITARY[word])
    if "." in word:
        zone = _zone_word(word.replace(".", ""), local_names)
        if zone is not None:
            return zone
    return Token(BAD)


def _zone_word(word: str, local_names: tuple[str, ...]) -> Token | None:
    if word in _UNIVERSAL_ZONES:
        return Token(ZONE, 0)
    if word in local_names:
        return Token("LOCAL_ZONE")
    if word in _ZONES:
        return Token(*_ZONES[word])
    return None


def tokenize(text: str, local_names: tuple[str, ...] = ()) -> list[Token]:
    """gnulib's yylex: blanks skipped, a sign not before a digit skipped, numbers with an
    optional fraction (`.` or `,`), words of letters and dots, `(comments)` skipped."""
    tokens: list[Token] = []
    index, end = 0, len(text)
    while True:
        while index < end and text[index] in " \t\n\v\f\r":
            index += 1
        if index >= end:
            tokens.append(Token(END))
            return tokens
        char = text[index]
        if _digit(char) or char in "+-":
            sign = 0
            if char in "+-":
                sign = -1 if char == "-" else 1
                index += 1
                while index < end and text[index] in " \t\n\v\f\r":
                    index += 1
                if index >= end or not _digit(text[index]):
                    continue
            index = _number(text, index, sign, tokens)
            continue
        if char.isascii() and char.isalpha():
            start = index
            while index < end and ((text[index].isascii() and text[index].isalpha()) or text[index] == "."):
                index += 1
            tokens.append(_lookup(text[start:index], local_names))
            continue
        if char != "(":
            tokens.append(Token(char))
            index += 1
            continue
        depth = 0
        while True:
            if index >= end:
                tokens.append(Token(END))
                return tokens
            if text[index] == "(":
                depth += 1
            elif text[index] == ")":
                depth -= 1
            index += 1
            if depth == 0:
                break


def _digit(char: str) -> bool:
    return "0" <= char <= "9"


def _number(text: str, index: int, sign: int, tokens: list[Token]) -> int:
    start = index
    while index < len(text) and _digit(text[index]):
        index += 1
    value = int(text[start:index])
    if value >= 1 << 63:
        tokens.append(Token(BAD))
        return index
    if index + 1 < len(text) and text[index] in ".," and _digit(text[index + 1]):
        index += 1
        fraction_start = index
        while index < len(text) and _digit(text[index]):
            index += 1
        fraction = text[fraction_start:index]
        ns = int((fraction + "000000000")[:9])
        seconds = -value if sign < 0 else value
        if sign < 0:
            if any(ch != "0" for ch in fraction[9:]):
                ns += 1
            if ns:
                seconds -= 1
                ns = BILLION - ns
        tokens.append(Token(SDECIMAL if sign else UDECIMAL, seconds, ns=ns))
        return index
    tokens.append(Token(SNUMBER if sign else UNUMBER, -value if sign < 0 else value, index - start, sign < 0))
    return index


class Invalid(Exception):
    """The string is not a date GNU would accept."""


@dataclass
class Relative:
    year: int = 0
    month: int = 0
    day: int = 0
    hour: int = 0
    minute: int = 0
    second: int = 0
    ns: int = 0

    def add(self, other: "Relative", factor: int) -> None:
        for name in ("year", "month", "day", "hour", "minute", "second", "ns"):
            setattr(self, name, getattr(self, name) + factor * getattr(other, name))


@dataclass
class State:
    """parse_datetime's parser_control: what the items said, and how many of each."""
    year: int
    year_digits: int
    month: int
    day: int
    hour: int
    minute: int
    second: int
    ns: int
    meridian: int = MER24
    zone: int | None = None
    day_ordinal: int = 0
    day_number: int = 0
    relative: Relative = field(default_factory=Relative)
    rels_seen: bool = False
    timespec: tuple[int, int] | None = None
    dates: int = 0
    times: int = 0
    days: int = 0
    zones: int = 0
    local_zones: int = 0
    dsts: int = 0


class _Parser:
    def __init__(self, tokens: list[Token], state: State) -> None:
        self.tokens = tokens
        self.position = 0
        self.state = state

    def peek(self, ahead: int = 0) -> Token:
        return self.tokens[min(self.position + ahead, len(self.tokens) - 1)]

    def take(self, *kinds: str) -> Token:
        token = self.peek()
        if kinds and token.kind not in kinds:
            raise Invalid()
        self.position += 1
        return token

    def at(self, *kinds: str) -> bool:
        return self.peek().kind in kinds

    # -------------------------------------------------------- spec and items

    def spec(self) -> None:
        if self.at("@"):
            self.take()
            token = self.take(UNUMBER, SNUMBER, UDECIMAL, SDECIMAL)
            self.take(END)
            self.state.timespec = (token.value, token.ns)
            return
        while not self.at(END):
            self.item()

    def item(self) -> None:
        kind = self.peek().kind
        if kind == UNUMBER:
            self.unumber_item()
        elif kind == SNUMBER:
            self.relative_item(self.relunit_snumber())
        elif kind in (UDECIMAL, SDECIMAL):
            number = self.take()
            self.take(SEC_UNIT)
            self.relative_item(Relative(second=number.value, ns=number.ns))
        elif kind == MONTH:
            self.month_date()
        elif kind == DAY_NAME:
            self.state.day_number = self.take().value
            self.state.day_ordinal = 0
            if self.at(","):
                self.take()
            self.state.days += 1
        elif kind == ORDINAL:
            self.ordinal_item()
        elif kind in UNITS:
            self.relative_item(self.unit(1))
        elif kind == DAY_SHIFT:
            self.apply(Relative(day=self.take().value), 1)
        elif kind in (ZONE, "T"):
            self.zone_item()
        elif kind == DAYZONE:
            self.state.zone = self.take().value + HOUR
            self.state.zones += 1
        elif kind == "LOCAL_ZONE":
            self.take()
            if self.at(DST):
                self.take()
                self.state.dsts += 1
            self.state.local_zones += 1
        else:
            raise Invalid()

    def unumber_item(self) -> None:
        state = self.state
        following = self.peek(1).kind
        if following == ":" or following == MERIDIAN:
            self.time_of_day(allow_meridian=True)
            state.times += 1
        elif following == "/":
            self.slash_date()
            state.dates += 1
        elif following == MONTH:
            number = self.take()
            state.month = self.take().value
            state.day = number.value
            if self.at(SNUMBER):
                year = self.take()
                state.year, state.year_digits = -year.value, year.digits
            elif self.at(UNUMBER):
                year = self.take()
                state.year, state.year_digits = year.value, year.digits
            state.dates += 1
        elif following == DAY_NAME:
            state.day_ordinal = self.take().value
            state.day_number = self.take().value
            state.days += 1
        elif following in UNITS:
            number = self.take()
            self.relative_item(self.unit(number.value))
        elif following == SNUMBER:
            self.unumber_then_signed()
        else:
            self.digits_to_date_time(self.take())

    def unumber_then_signed(self) -> None:
        """`2024-01-15` (a date, then maybe `T` and a time), `20240115 -1 day` (a number
        and a move), or `10+05` (an hour with a zone offset)."""
        state = self.state
        after = self.peek(2).kind
        if after == SNUMBER:
            year = self.take()
            month = self.take()
            day = self.take()
            state.year, state.year_digits = year.value, year.digits
            state.month, state.day = -month.value, -day.value
            if self.at("T"):
                self.take()
                self.iso_time()
                state.times += 1
            state.dates += 1
        elif after in UNITS:
            self.digits_to_date_time(self.take())
            self.apply(self.relunit_snumber(), 1)
        else:
            hour = self.take()
            self.set_time(hour.value, 0, 0, 0, MER24)
            self.zone_offset()
            state.times += 1

    def iso_time(self) -> None:
        """After `T`: HH, HH:MM or HH:MM:SS[.frac], then maybe a zone offset."""
        hour = self.take(UNUMBER)
        if not self.at(":"):
            self.set_time(hour.value, 0, 0, 0, MER24)
            self.zone_offset()
            return
        self.take()
        minute = self.take(UNUMBER)
        second, ns = 0, 0
        if self.at(":"):
            self.take()
            seconds = self.take(UNUMBER, UDECIMAL)
            second, ns = seconds.value, seconds.ns
        self.set_time(hour.value, minute.value, second, ns, MER24)
        if self.at(SNUMBER):
            self.zone_offset()

    def time_of_day(self, allow_meridian: bool) -> None:
        hour = self.take(UNUMBER)
        if self.at(MERIDIAN):
            self.set_time(hour.value, 0, 0, 0, self.take().value)
            return
        self.take(":")
        minute = self.take(UNUMBER)
        second, ns = 0, 0
        if self.at(":"):
            self.take()
            seconds = self.take(UNUMBER, UDECIMAL)
            second, ns = seconds.value, seconds.ns
        if self.at(MERIDIAN) and allow_meridian:
            self.set_time(hour.value, minute.value, second, ns, self.take().value)
            return
        self.set_time(hour.value, minute.value, second, ns, MER24)
        if self.at(SNUMBER):
            self.zone_offset()

    def set_time(self, hour: int, minute: int, second: int, ns: int, meridian: int) -> None:
        state = self.state
        state.hour, state.minute, state.second, state.ns, state.meridian = hour, minute, second, ns, meridian

    def zone_offset(self) -> None:
        """A numeric zone after a time: `+05`, `+0530`, `+05:30`, `-3`."""
        number = self.take(SNUMBER)
        minutes = -1
        if self.at(":"):
            self.take()
            minutes = self.take(UNUMBER).value
        self.state.zone = _hhmm(number, minutes)
        self.state.zones += 1

    def slash_date(self) -> None:
        state = self.state
        first = self.take(UNUMBER)
        self.take("/")
        second = self.take(UNUMBER)
        if not self.at("/"):
            state.month, state.day = first.value, second.value
            return
        self.take()
        third = self.take(UNUMBER)
        if first.digits >= 4:
            state.year, state.year_digits = first.value, first.digits
            state.month, state.day = second.value, third.value
        else:
            state.month, state.day = first.value, second.value
            state.year, state.year_digits = third.value, third.digits

    def month_date(self) -> None:
        """`Jan 15`, `Jan 15, 2024`, `Jan-15-2024`."""
        state = self.state
        state.month = self.take().value
        if self.at(SNUMBER) and self.peek(1).kind == SNUMBER:
            day = self.take()
            year = self.take()
            state.day = -day.value
            state.year, state.year_digits = -year.value, year.digits
        else:
            state.day = self.take(UNUMBER).value
            if self.at(",") and self.peek(1).kind == UNUMBER:
                self.take()
                year = self.take()
                state.year, state.year_digits = year.value, year.digits
        state.dates += 1

    def ordinal_item(self) -> None:
        ordinal = self.take()
        if self.at(DAY_NAME):
            self.state.day_ordinal = ordinal.value
            self.state.day_number = self.take().value
            self.state.days += 1
            return
        if not self.at(*UNITS):
            raise Invalid()
        self.relative_item(self.unit(ordinal.value))

    def zone_item(self) -> None:
        token = self.take()
        state = self.state
        state.zone = -7 * HOUR if token.kind == "T" else token.value
        if self.at(SNUMBER) and self.peek(1).kind in UNITS:
            self.apply(self.relunit_snumber(), 1)
        elif self.at(SNUMBER) and token.kind == ZONE:
            number = self.take()
            minutes = -1
            if self.at(":"):
                self.take()
                minutes = self.take(UNUMBER).value
            state.zone = _hhmm(number, minutes) + token.value
        elif self.at(DST) and token.kind == ZONE:
            self.take()
            state.zone = token.value + HOUR
        state.zones += 1

    # -------------------------------------------------------- relative items

    def unit(self, count: int) -> Relative:
        token = self.take(*UNITS)
        amount = count * token.value
        names = {YEAR_UNIT: "year", MONTH_UNIT: "month", DAY_UNIT: "day", HOUR_UNIT: "hour",
                 MINUTE_UNIT: "minute", SEC_UNIT: "second"}
        relative = Relative()
        setattr(relative, names[token.kind], amount)
        return relative

    def relunit_snumber(self) -> Relative:
        number = self.take(SNUMBER)
        if not self.at(*UNITS):
            raise Invalid()
        return self.unit(number.value)

    def relative_item(self, relative: Relative) -> None:
        factor = 1
        if self.at(AGO):
            factor = self.take().value
        self.apply(relative, factor)

    def apply(self, relative: Relative, factor: int) -> None:
        self.state.relative.add(relative, factor)
        self.state.rels_seen = True

    def digits_to_date_time(self, number: Token) -> None:
        """A bare number: a year after a date, YYYYMMDD when longer than 4 digits, else
        HH or HHMM."""
        state = self.state
        if state.dates and not state.year_digits and not state.rels_seen and (state.times or number.digits > 2):
            state.year, state.year_digits = number.value, number.digits
        elif number.digits > 4:
            state.dates += 1
            state.day = number.value % 100
            state.month = number.value // 100 % 100
            state.year, state.year_digits = number.value // 10000, number.digits - 4
        else:
            state.times += 1
            if number.digits <= 2:
                self.set_time(number.value, 0, 0, 0, MER24)
            else:
                self.set_time(number.value // 100, number.value % 100, 0, 0, MER24)


def _hhmm(number: Token, minutes: int) -> int:
    """gnulib's time_zone_hhmm: seconds east of UTC for `+5`, `+0530`, `+05:30`."""
    value = number.value
    if number.digits <= 2 and minutes < 0:
        value *= 100
    if minutes < 0:
        total = int(value / 100) * 60 + _c_remainder(value, 100)
    else:
        total = value * 60 + (-minutes if number.negative else minutes)
    if not -24 * 60 <= total <= 24 * 60:
        raise Invalid()
    return total * 60


def _c_remainder(value: int, divisor: int) -> int:
    remainder = abs(value) % divisor
    return -remainder if value < 0 else remainder


def _to_hour(hour: int, meridian: int) -> int:
    if meridian == MER24:
        return hour if 0 <= hour < 24 else -1
    if meridian == MERAM:
        return hour if 0 < hour < 12 else 0 if hour == 12 else -1
    return hour + 12 if 0 < hour < 12 else 12 if hour == 12 else -1


def _to_year(value: int, digits: int) -> int:
    if value < 0:
        return -value
    if digits == 2:
        return value + (2000 if value < 69 else 1900)
    return value


def _tz_prefix(text: str) -> tuple[str | None, str]:
    """A leading `TZ="ZONE"` (backslash escapes `"` and `\\`): (zone, the rest)."""
    if not text.startswith('TZ="'):
        return None, text
    chars: list[str] = []
    index = 4
    while index < len(text):
        char = text[index]
        if char == "\\" and index + 1 < len(text) and text[index + 1] in '\\"':
            chars.append(text[index + 1])
            index += 2
            continue
        if char == '"':
            return "".join(chars), text[index + 1:]
        chars.append(char)
        index += 1
    raise Invalid()


def parse_datetime(text: str, now: tuple[int, int], zone: Zone,
                   zone_for: Callable[[str], Zone] = zone_from_tz) -> tuple[int, int] | None:
    """(seconds, nanoseconds) since the epoch that `text` names, reading it in `zone`
    with `now` for whatever it leaves out; None when GNU would call it invalid."""
    try:
        return _parse(text, now, zone, zone_for)
    except (Invalid, OverflowError, ValueError):
        return None


def _parse(text: str, now: tuple[int, int], zone: Zone, zone_for: Callable[[str], Zone]) -> tuple[int, int]:
    tz_text, text = _tz_prefix(text)
    if tz_text is not None:
        zone = zone_for(tz_text)
    local = broken_down(now[0], now[1], zone)
    names = tuple({local.zone.upper()} - {""})
    state = State(local.year, 0, local.month, local.day, local.hour, local.minute, local.second, now[1])
    _Parser(tokenize(text, names), state).spec()
    if state.timespec is not None:
        return state.timespec
    if max(state.times, state.dates, state.days, state.dsts, state.zones + state.local_zones) > 1:
        raise Invalid()
    work = FixedZone(state.zone) if state.zone is not None else zone
    year = _to_year(state.year, state.year_digits)
    if state.times or (state.rels_seen and not state.dates and not state.days):
        hour = _to_hour(state.hour, state.meridian)
        if hour < 0:
            raise Invalid()
        minute, second, ns = state.minute, state.second, state.ns
    else:
        hour = minute = second = ns = 0
    if not (1 <= state.month <= 12 and 1 <= state.day <= days_in_month(year, state.month)
            and 0 <= minute < 60 and 0 <= second < 60):
        raise Invalid()
    days = normalized_days(year, state.month, state.day)
    clock = hour * 3600 + minute * 60 + second
    start = work.to_epoch(days * DAY + clock)
    if state.zone is None:  # mktime_ok: a local time the clock skips (a DST gap) is invalid
        shown = broken_down(start, 0, work)
        if (shown.year, shown.month, shown.day, shown.hour, shown.minute) != (year, state.month, state.day,
                                                                                hour, minute):
            raise Invalid()
    if state.days and not state.dates:
        wday = (days + 4) % 7
        ordinal = state.day_ordinal
        days += (ordinal - (0 < ordinal and wday != state.day_number)) * 7 + (state.day_number - wday + 7) % 7
        start = work.to_epoch(days * DAY + clock)
    relative = state.relative
    if relative.year or relative.month or relative.day:
        shown = broken_down(start, 0, work)
        days = normalized_days(shown.year + relative.year, shown.month + relative.month, shown.day + relative.day)
        start = work.to_epoch(days * DAY + clock)
    total_ns = ns + relative.ns
    carry, ns = divmod(total_ns, BILLION)
    seconds = start + relative.hour * 3600 + relative.minute * 60 + relative.second + carry
    if abs(seconds) >= 1 << 62:
        raise Invalid()
    return seconds, ns
