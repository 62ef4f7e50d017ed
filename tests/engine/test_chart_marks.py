"""The course's charts tell apart what coincides and point at what happened.

Three identical score lines drew as one line; two dice lines coinciding for two rounds hid one
another; a vote and a death were only in a collapsed list under the chart. Now each line that
shares a stretch with another is drawn a little apart, and the marks are numbered badges on the
chart at their round, the weather (every round) listed only.
"""

from __future__ import annotations

import re

from companion.engine import charts
from companion.engine import course as C


def _course(values: list[list[int]], marks: list[dict]) -> tuple[dict, dict]:
    names = ["Ann", "Bob", "Cid"][: len(values)]
    lines = [C.series(n, n, v, C.seat_style(i)) for i, (n, v) in enumerate(zip(names, values, strict=True))]
    ch = C.chart("scores", "Scores", lines)
    return C.description(list(range(len(values[0]))), [ch], "en", marks=marks), ch


def _shift(svg: str, serie: int) -> float:
    found = re.search(rf'<g class="series serie-{serie} color-{serie}"(?: transform="translate\(0,([-\d.]+)\)")?>', svg)
    assert found, serie
    return float(found.group(1) or 0)


def test_three_identical_lines_are_drawn_apart_and_said_to_be() -> None:
    course, ch = _course([[0, 1, 3, 4]] * 3, [])
    svg = charts.svg(course, ch)
    shifts = {_shift(svg, n) for n in range(3)}
    assert len(shifts) == 3 and 0 in shifts  # three lines, three places
    assert ch["apart"] is True


def test_two_lines_sharing_a_stretch_are_apart_and_lines_alone_are_not() -> None:
    assert charts.apart([[0, 2, 2, 5], [1, 2, 2, 3]]) == [0, charts.STEP]  # the same from round 1 to 2
    assert charts.apart([[0, 2, 3, 5], [1, 2, 4, 3]]) == [0, 0]  # they only cross at a point
    course, ch = _course([[0, 2, 3, 5], [1, 2, 4, 3]], [])
    charts.svg(course, ch)
    assert ch["apart"] is False


def test_a_vote_and_a_death_are_numbered_badges_at_their_round_and_the_weather_is_listed_only() -> None:
    marks = [{"x": 1, "kind": "weather", "text": "Weather: 1 water"},
             {"x": 2, "kind": "weather", "text": "Weather: 0 water"},
             {"x": 2, "kind": "vote", "text": "Vote: Ann 2"},
             {"x": 2, "kind": "death", "text": "Ann dies"},
             {"x": 3, "kind": "weather", "text": "Weather: 2 water"}]
    course, ch = _course([[5, 4, 2, 1], [3, 3, 2, 0]], marks)
    svg = charts.svg(course, ch)
    drawn = re.findall(r'<g class="mark mark-(\w+)"><title>([^<]*)</title><circle cx="([\d.]+)".*?>(\d+)</text>', svg)
    assert [(kind, title, n) for kind, title, _, n in drawn] == [("vote", "Vote: Ann 2", "3"), ("death", "Ann dies", "4")]
    x_round_2 = re.findall(r'<path d="M([\d.]+) [\d.]+ v[\d.]+" class="guide line" /><text x="[\d.]+" y="[\d.]+" class="">2<',
                           svg)
    assert x_round_2 and all(abs(float(cx) - float(x_round_2[0])) < 0.1 for _, _, cx, _ in drawn)  # at round 2
    assert "Weather" not in "".join(t for _, t, _, _ in drawn)
