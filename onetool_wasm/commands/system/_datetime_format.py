"""Calendar arithmetic, time zones and GNU's strftime, for `date` (not a command).

Times are (seconds, nanoseconds) since the epoch; the calendar is the proleptic Gregorian
one in plain integer arithmetic, so any year prints (`date -d @99999999999999` is in year
3170843, as GNU says). `format_time` is a port of gnulib's nstrftime in the C locale: the
flags `_ - 0 + ^ #`, field widths, the E and O modifiers (no effect in the C locale),
`%N`'s precision, `%:z %::z %:::z`, and a bad conversion copied out as written.
"""
from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass
from typing import Any

DAY = 86_400
BILLION = 1_000_000_000
WEEKDAYS = ("Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday")
MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August", "September",
          "October", "November", "December")


# ---------------------------------------------------------------- the calendar

def days_from_civil(year: int, month: int, day: int) -> int:
    """Days since 1970-01-01 of a Gregorian date (month 1-12; any day, it just adds)."""
    year -= month <= 2
    era = year // 400
    yoe = year - era * 400
    mp = (month + 9) % 12
    doy = (153 * mp + 2) // 5 + day - 1
    doe = yoe * 365 + yoe // 4 - yoe // 100 + doy
    return era * 146097 + doe - 719468


def civil_from_days(days: int) -> tuple[int, int, int]:
    """(year, month, day) of a day count since 1970-01-01."""
    days += 719468
    era = days // 146097
    doe = days - era * 146097
    yoe = (doe - doe // 1460 + doe // 36524 - doe // 146096) // 365
    doy = doe - (365 * yoe + yoe // 4 - yoe // 100)
    mp = (5 * doy + 2) // 153
    day = doy - (153 * mp + 2) // 5 + 1
    month = mp + 3 if mp < 10 else mp - 9
    return yoe + era * 400 + (month <= 2), month, day


def is_leap(year: int) -> bool:
    return year % 4 == 0 and (year % 100 != 0 or year % 400 == 0)


def days_in_month(year: int, month: int) -> int:
    if month == 2:
        return 29 if is_leap(year) else 28
    return 30 if month in (4, 6, 9, 11) else 31


def normalized_days(year: int, month: int, day: int) -> int:
    """Days since the epoch of year/month/day where month and day may overflow (as mktime
    normalizes them: 2024-01-31 + 1 month is 2024-02-31, that is March 2)."""
    year += (month - 1) // 12
    month = (month - 1) % 12 + 1
    return days_from_civil(year, month, 1) + day - 1


# ---------------------------------------------------------------- time zones

class Zone:
    """A time zone: its offset east of UTC at an instant, and its abbreviation."""

    def offset(self, epoch: int) -> int:
        raise NotImplementedError

    def abbreviation(self, epoch: int) -> str:
        raise NotImplementedError

    def to_epoch(self, local_seconds: int) -> int:
        """The instant whose local time is `local_seconds` (seconds since the epoch as the
        wall clock reads them), the earlier one when the clock repeats."""
        guess = local_seconds - self.offset(local_seconds)
        return local_seconds - self.offset(guess)


@dataclass(frozen=True)
class FixedZone(Zone):
    seconds_east: int
    name: str = "UTC"

    def offset(self, epoch: int) -> int:
        return self.seconds_east

    def abbreviation(self, epoch: int) -> str:
        return self.name


UTC = FixedZone(0, "UTC")
_MIN_EPOCH = -62135596800 + 2 * DAY    # datetime's range, with a margin for the offset
_MAX_EPOCH = 253402300799 - 2 * DAY


class TzinfoZone(Zone):
    """A datetime.tzinfo (zoneinfo, or a fixed datetime.timezone). Outside datetime's
    years 1-9999 the offset at the nearest end of that range holds."""

    def __init__(self, tzinfo: dt.tzinfo) -> None:
        self.tzinfo = tzinfo

    def _moment(self, epoch: int) -> dt.datetime:
        clamped = min(max(epoch, _MIN_EPOCH), _MAX_EPOCH)
        return dt.datetime.fromtimestamp(clamped, tz=dt.timezone.utc).astimezone(self.tzinfo)

    def offset(self, epoch: int) -> int:
        delta = self._moment(epoch).utcoffset()
        return int(delta.total_seconds()) if delta is not None else 0

    def abbreviation(self, epoch: int) -> str:
        moment = self._moment(epoch)
        name = moment.tzname()
        if name is None:
            return ""
        if name.startswith("UTC") and len(name) > 3 and isinstance(self.tzinfo, dt.timezone):
            return _numeric_abbreviation(self.offset(epoch))  # timezone(timedelta(hours=5)): "+05"
        return name


def _numeric_abbreviation(offset: int) -> str:
    sign = "-" if offset < 0 else "+"
    hours, rest = divmod(abs(offset), 3600)
    minutes, seconds = divmod(rest, 60)
    text = f"{sign}{hours:02d}"
    if minutes or seconds:
        text += f"{minutes:02d}"
    if seconds:
        text += f"{seconds:02d}"
    return text


def zone_of(tzinfo: Any) -> Zone:
    """The zone of a context's `timezone`: None is UTC (the sandbox's default)."""
    if tzinfo is None:
        return UTC
    if isinstance(tzinfo, Zone):
        return tzinfo
    return TzinfoZone(tzinfo)


_POSIX_NAME = re.compile(r"<([^>]*)>|([A-Za-z]{3,})")
_POSIX_OFFSET = re.compile(r"([+-]?)(\d{1,3})(?::(\d{1,2})(?::(\d{1,2}))?)?")


def zone_from_tz(text: str) -> Zone:
    """The zone a TZ value names, as glibc reads it: an IANA name (when zone data is
    installed), else a POSIX `NAMEoffset` (`EST5`, `JST-9`, `<+0530>-5:30`; a daylight
    saving part is ignored), else UTC under the name's leading letters (`Foo/Bar` is
    `Foo`, offset 0)."""
    name = text[1:] if text.startswith(":") else text
    if name in ("", "UTC", "UTC0", "GMT", "GMT0", "UCT", "Zulu", "Etc/UTC", "Etc/GMT", "Universal"):
        return FixedZone(0, "GMT" if name.startswith("GMT") or name == "Etc/GMT" else "UTC")
    zone = _zoneinfo(name)
    if zone is not None:
        return zone
    match = _POSIX_NAME.match(name)
    if match is None:
        return FixedZone(0, "")
    abbreviation = match.group(1) if match.group(1) is not None else match.group(2)
    offset = _POSIX_OFFSET.match(name, match.end())
    if offset is None:
        return FixedZone(0, abbreviation)
    sign, hours, minutes, seconds = offset.groups()
    west = int(hours) * 3600 + int(minutes or 0) * 60 + int(seconds or 0)
    return FixedZone(west if sign == "-" else -west, abbreviation)


def _zoneinfo(name: str) -> Zone | None:
    if not re.fullmatch(r"[A-Za-z][A-Za-z0-9_+\-]*(/[A-Za-z0-9_+\-]+)*", name):
        return None
    try:
        import zoneinfo
        return TzinfoZone(zoneinfo.ZoneInfo(name))
    except Exception:  # no such zone, or no zone data on this platform
        return None


# ---------------------------------------------------------------- broken-down time

@dataclass(frozen=True)
class BrokenDown:
    """A moment as a zone's wall clock shows it (struct tm, with a full year, month 1-12
    and yday from 0)."""
    epoch: int
    ns: int
    year: int
    month: int
    day: int
    hour: int
    minute: int
    second: int
    wday: int
    yday: int
    offset: int
    zone: str


def broken_down(epoch: int, ns: int, zone: Zone) -> BrokenDown:
    offset = zone.offset(epoch)
    days, seconds = divmod(epoch + offset, DAY)
    year, month, day = civil_from_days(days)
    hour, rest = divmod(seconds, 3600)
    minute, second = divmod(rest, 60)
    wday = (days + 4) % 7
    yday = days - days_from_civil(year, 1, 1)
    return BrokenDown(epoch, ns, year, month, day, hour, minute, second, wday, yday, offset,
                      zone.abbreviation(epoch))


# ---------------------------------------------------------------- strftime

_C_FORMATS = {"D": "%m/%d/%y", "R": "%H:%M", "T": "%H:%M:%S", "r": "%I:%M:%S %p", "X": "%H:%M:%S"}


def format_time(fmt: str, tm: BrokenDown) -> str:
    """`date +FORMAT`: gnulib's nstrftime in the C locale."""
    return _Formatter(tm).run(fmt, upcase=False, yr_spec="", width=-1)


class _Formatter:
    def __init__(self, tm: BrokenDown) -> None:
        self.tm = tm

    def run(self, fmt: str, upcase: bool, yr_spec: str, width: int) -> str:
        out: list[str] = []
        index, end = 0, len(fmt)
        while index < end:
            if fmt[index] != "%":
                out.append(_padded(fmt[index], width, ""))
                index += 1
                width = -1
                continue
            index = self._conversion(fmt, index, out, upcase, yr_spec, width)
            width = -1
        return "".join(out)

    def _conversion(self, fmt: str, start: int, out: list[str], upcase: bool, yr_spec: str,
                    width: int) -> int:
        """One `%...` at `start`; the index after it."""
        index = start + 1
        end = len(fmt)
        pad = ""
        to_upper, change_case = upcase, False
        while index < end and fmt[index] in "_-+0^#":
            flag = fmt[index]
            if flag == "^":
                to_upper = True
            elif flag == "#":
                change_case = True
            else:
                pad = flag
            index += 1
        if index < end and fmt[index].isdigit() and fmt[index].isascii():
            width = 0
            while index < end and fmt[index].isdigit() and fmt[index].isascii():
                width = min(width * 10 + int(fmt[index]), 1 << 20)
                index += 1
        modifier = ""
        if index < end and fmt[index] in "EO":
            modifier = fmt[index]
            index += 1
        if index >= end:  # `%` (and flags) at the end: copied out as written
            out.append(_padded(fmt[start:end], width, pad))
            return end
        spec = _Spec(fmt[index], pad, width, modifier, to_upper, change_case)
        text = self._convert(spec, fmt, index, yr_spec)
        if text is None:  # a bad conversion: copied out from its `%`, as far as it got
            bad_end = index + (0 if fmt[index] == "%" else 1)
            out.append(_padded(fmt[start:bad_end], spec.width, spec.pad))
            return bad_end
        if isinstance(text, tuple):  # %:z and friends: (text, index after it)
            out.append(text[0])
            return text[1]
        out.append(text)
        return index + 1

    def _convert(self, spec: "_Spec", fmt: str, index: int, yr_spec: str) -> Any:
        tm = self.tm
        char = spec.char
        if char == "%":
            if spec.modifier or fmt[index - 1] != "%":
                return None
            return _padded("%", spec.width, spec.pad)
        if char in "aAbBhpPZ":
            return self._text(spec)
        if char in "cDFRrTxX":
            return self._subformat(spec, yr_spec)
        if char in "nt":
            return None if spec.modifier else _padded("\n" if char == "n" else "\t", spec.width, spec.pad)
        if char == "N":
            return None if spec.modifier == "E" else _nanoseconds(tm.ns, spec)
        if char == ":":
            return self._colon_zone(spec, fmt, index)
        if char == "z":
            return _zone_offset(tm.offset, 0, spec)
        number = self._number(spec, yr_spec)
        return number

    def _text(self, spec: "_Spec") -> str | None:
        tm, char = self.tm, spec.char
        if spec.modifier:
            return None
        lower = False
        upper = spec.to_upper
        if char == "a":
            text = WEEKDAYS[tm.wday][:3]
        elif char == "A":
            text = WEEKDAYS[tm.wday]
        elif char in "bh":
            text = MONTHS[tm.month - 1][:3]
        elif char == "B":
            text = MONTHS[tm.month - 1]
        elif char in "pP":
            text = "AM" if tm.hour < 12 else "PM"
            lower = char == "P"
        else:
            text = tm.zone
        if spec.change_case:
            if char in "pPZ":
                upper, lower = False, True
            else:
                upper, lower = True, False
        if lower:
            text = text.lower()
        elif upper:
            text = text.upper()
        return _padded(text, spec.width, spec.pad)

    def _subformat(self, spec: "_Spec", yr_spec: str) -> str | None:
        char = spec.char
        if spec.modifier and not (char in "cxX" and spec.modifier == "E"):
            return None
        if char == "F":
            if spec.pad == "" and spec.width < 0:
                inner = self.run("%Y-%m-%d", spec.to_upper, "+", -1)
            else:
                inner = self.run("%Y-%m-%d", spec.to_upper, spec.pad, max(spec.width - 6, 0))
        elif char == "c":  # glibc's %c, whose year is not padded
            inner = self.run("%a %b %e %H:%M:%S ", spec.to_upper, "", -1) + str(self.tm.year)
        elif char == "x":
            inner = self.run("%m/%d/%y", spec.to_upper, "", -1)
        else:
            inner = self.run(_C_FORMATS[char], spec.to_upper, spec.pad, -1)
        return _padded(inner, spec.width, spec.pad)

    def _colon_zone(self, spec: "_Spec", fmt: str, index: int) -> Any:
        colons = 1
        while index + colons < len(fmt) and fmt[index + colons] == ":":
            colons += 1
        if index + colons >= len(fmt) or fmt[index + colons] != "z" or colons > 3:
            return None
        return (_zone_offset(self.tm.offset, colons, spec), index + colons + 1)

    def _number(self, spec: "_Spec", yr_spec: str) -> str | None:
        tm, char = self.tm, spec.char
        if spec.modifier == "E" and char not in "CyY":
            return None
        if spec.modifier == "O" and char in "CsYqGgjNz":
            return None
        hour12 = tm.hour % 12 or 12
        simple = {"d": (2, tm.day), "H": (2, tm.hour), "I": (2, hour12), "M": (2, tm.minute),
                  "S": (2, tm.second), "u": (1, (tm.wday + 6) % 7 + 1), "w": (1, tm.wday),
                  "U": (2, (tm.yday - tm.wday + 7) // 7), "W": (2, (tm.yday - (tm.wday + 6) % 7 + 7) // 7),
                  "j": (3, tm.yday + 1), "m": (2, tm.month), "q": (1, (tm.month + 2) // 3),
                  "s": (1, tm.epoch)}
        if char in simple:
            digits, value = simple[char]
            return _number(value, digits, spec.pad, spec.width)
        spaced = {"e": tm.day, "k": tm.hour, "l": hour12}
        if char in spaced:
            return _number(spaced[char], 2, spec.pad or "_", spec.width)
        iso_year, iso_week, _ = _iso_calendar(tm)
        yearish = {"Y": (4, tm.year), "C": (2, _century(tm.year)), "y": (2, _two_digits(tm.year, 0)),
                   "G": (4, iso_year), "g": (2, _two_digits(tm.year, iso_year - tm.year))}
        if char in yearish:
            digits, value = yearish[char]
            negative = tm.year < 0 if char == "C" else value < 0  # year -1 is century "-0"
            return _yearish(abs(value), negative, digits, spec.pad or yr_spec, spec.width)
        if char == "V":
            return _number(iso_week, 2, spec.pad, spec.width)
        return None


@dataclass(frozen=True)
class _Spec:
    char: str
    pad: str
    width: int
    modifier: str
    to_upper: bool
    change_case: bool


def _padded(text: str, width: int, pad: str) -> str:
    """gnulib's width_add: pad on the left to `width` (zeros for `0` and `+`, else
    spaces; never for `-`)."""
    if pad == "-" or width <= len(text):
        return text
    fill = "0" if pad in ("0", "+") else " "
    return fill * (width - len(text)) + text


def _signed(digits_text: str, negative: bool, always_sign: bool, digits: int, pad: str, width: int) -> str:
    """gnulib's do_number_sign_and_padding for a number already written out."""
    pad = pad or "0"
    if width < 0:
        width = digits
    sign = "-" if negative else "+" if always_sign else ""
    shortage = width - len(sign) - len(digits_text)
    padding = 0 if pad == "-" or shortage <= 0 else shortage
    prefix = ""
    if sign:
        if pad == "_":
            prefix = " " * padding
            width -= padding
        prefix += sign
        width -= 1
    return prefix + _padded(digits_text, width, pad)


def _number(value: int, digits: int, pad: str, width: int) -> str:
    return _signed(str(abs(value)), value < 0, False, digits, pad, width)


def _yearish(magnitude: int, negative: bool, digits: int, pad: str, width: int) -> str:
    always = pad == "+" and ((99 if digits == 2 else 9999) < magnitude or digits < width)
    return _signed(str(magnitude), negative, always, digits, pad, width)


def _c_div(a: int, b: int) -> int:
    """C's integer division, which truncates toward zero."""
    quotient = abs(a) // abs(b)
    return quotient if (a < 0) == (b < 0) else -quotient


def _century(year: int) -> int:
    """gnulib's %C (from tm_year, which counts from 1900): 20 for 2024, -31669 for -3166904."""
    tm_year = year - 1900
    zero_thru_1899 = -1900 <= tm_year < 0
    return _c_div(tm_year - 99 * zero_thru_1899, 100) + 19


def _c_mod(a: int, b: int) -> int:
    return a - b * _c_div(a, b)


def _two_digits(year: int, adjust: int) -> int:
    """gnulib's %y (and %g, whose ISO year is `adjust` from the calendar's): the year's
    last two digits, also before year 0."""
    tm_year = year - 1900
    yy = _c_mod(_c_mod(tm_year, 100) + adjust, 100)
    if yy >= 0:
        return yy
    return -yy if tm_year < -1900 - adjust else yy + 100


def _iso_calendar(tm: BrokenDown) -> tuple[int, int, int]:
    """(ISO year, ISO week, ISO weekday) of the date."""
    weekday = (tm.wday + 6) % 7 + 1
    days = days_from_civil(tm.year, tm.month, tm.day)
    thursday = days + 4 - weekday
    year = civil_from_days(thursday)[0]
    week = (thursday - days_from_civil(year, 1, 1)) // 7 + 1
    return year, week, weekday


def _zone_offset(offset: int, colons: int, spec: _Spec) -> str:
    """%z (+hhmm), %:z (+hh:mm), %::z (+hh:mm:ss), %:::z (as short as exact)."""
    negative = offset < 0
    magnitude = abs(offset)
    hours, minutes, seconds = magnitude // 3600, magnitude // 60 % 60, magnitude % 60
    if colons == 3:
        colons = 2 if seconds else 1 if minutes else 3
    if colons == 0:
        digits, mask, value = 5, 0, hours * 100 + minutes
    elif colons == 1:
        digits, mask, value = 6, 0o4, hours * 100 + minutes
    elif colons == 2:
        digits, mask, value = 9, 0o24, hours * 10000 + minutes * 100 + seconds
    else:
        digits, mask, value = 3, 0, hours
    chars: list[str] = []
    while True:
        if mask & 1:
            chars.append(":")
        mask >>= 1
        chars.append(str(value % 10))
        value //= 10
        if value == 0 and mask == 0:
            break
    return _signed("".join(reversed(chars)), negative, True, digits, spec.pad, spec.width)


def _nanoseconds(ns: int, spec: _Spec) -> str:
    """%N: nine digits, %3N the first three; with `-` and a width (`%-3N`) trailing zeros
    are dropped, with `_` they become blanks."""
    width = spec.width if spec.width > 0 else 9
    value, count = ns, 9
    while width < count or (1 < count and value % 10 == 0):
        count -= 1
        value //= 10
    text = str(value).rjust(count, "0")
    pad = spec.pad or "0"
    if pad == "-" and spec.width <= 0:  # %-N is all nine digits, as GNU date prints it
        pad = "0"
    if pad == "-" or width <= count:
        return text
    return text + ("0" if pad in ("0", "+") else " ") * (width - count)
