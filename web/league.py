"""The league's page: standings across the club's tables, in English and French, with JSON and CSV, and
each game of the evening with its course charts where its table sent them.

Served by ``companion league`` (not by a table's dashboard); it reads the league's store only. A game's
charts are the dashboard's own: the course as its package drew it at the table (carried in the
``results`` message, checked by :mod:`companion.club.intake`), its tables rebuilt by
:func:`companion.engine.course.complete` and drawn by :func:`web.course_charts.with_svgs` into the
results screen's ``_course.html``.

- ``GET /`` — the standings, then the games (each with a link to its course)
- ``GET /standings.json``, ``/standings.csv`` — the standings to download
- ``GET /games/<id>`` — one game: its players, scores and winners, and its course charts (when two tables
  sent a game under one id — ids are random per table, so one of them is a forgery — the page names both)
- ``GET /tables/<table>/games/<id>`` (and ``.json``) — one table's game
- ``GET /games/<id>.json`` — the same result and its course (by language) as JSON

What a request costs does not depend on what a table sent: the standings are worked out once per change
of the results (:meth:`Store.revision`), each game's charts are drawn once per revision and language (when
the result is stored, by :meth:`Drawer.warm`, or at the first request) and kept, and only one request at a
time draws: another that would have to draw is told to come back in a moment (503, ``Retry-After``), so a
slow drawing never holds the threads the standings page needs.
"""

from __future__ import annotations

import copy
import csv
import io
import logging
import threading
from collections import OrderedDict
from typing import Any

from flask import Flask, Response, jsonify, render_template_string, request
from markupsafe import escape
from werkzeug.exceptions import HTTPException

from companion import games
from companion.club.league import csv_rows, standings
from companion.engine import course as shape
from companion.engine import texts
from web.course_charts import with_svgs
from web.formatting import csv_cell

log = logging.getLogger(__name__)

PAGE = """<!doctype html><html lang="{{ lang }}"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1"><title>{{ t("League standings") }}</title>
<style>body{font-family:system-ui,sans-serif;margin:1rem;max-width:60rem}table{border-collapse:collapse;margin:.5rem 0 1.5rem}
th,td{padding:.25rem .6rem;border-bottom:1px solid #ccc;text-align:left}td.n{text-align:right}
.scroll{overflow-x:auto;max-width:100%}</style></head><body>
<p><a href="?lang=en">English</a> · <a href="?lang=fr">Français</a> ·
<a href="standings.json">JSON</a> · <a href="standings.csv">CSV</a></p>
<h1>{{ t("League standings") }}</h1>
<p>{{ tn("{n} game from one table.", "{n} games from one table.", st.games) if st.tables|length == 1
      else tn("{n} game from {tables} tables.", "{n} games from {tables} tables.", st.games, tables=st.tables|length) }}</p>
{% macro rows(players) %}<table><tr><th>{{ t("Player") }}</th><th>{{ t("Played") }}</th><th>{{ t("Won") }}</th>
<th>{{ t("Points") }}</th></tr>{% for r in players %}<tr><td>{{ r.player }}</td><td class="n">{{ r.played }}</td>
<td class="n">{{ r.won }}</td><td class="n">{{ r.points }}</td></tr>{% endfor %}</table>{% endmacro %}
<h2>{{ t("Overall") }}</h2>{{ rows(st.overall) }}
{% for g in st.per_game %}<h2>{{ title(g.game) }}</h2>{{ rows(g.players) }}{% endfor %}
{% for m in st.tournaments %}<h2>{{ t("Tournament {match} at table {table}", match=m.match, table=m.table) }}</h2>
{% for mode, v in m.modes.items() %}<h3>{{ mode }}{% if mode == m.mode %} ({{ t("chosen") }}){% endif %}</h3>
<table><tr><th>{{ t("Player") }}</th><th>{{ t("Points") }}</th></tr>{% for p, pts in v.totals.items() %}
<tr><td>{{ p }}{% if p in v.leaders %} ★{% endif %}</td><td class="n">{{ pts }}</td></tr>{% endfor %}</table>
{% endfor %}{% endfor %}
{% if played %}<h2>{{ t("Games") }}</h2><div class="scroll"><table><tr><th>{{ t("Table") }}</th><th>{{ t("Game") }}</th>
<th>{{ t("Scores") }}</th><th>{{ t("Winners") }}</th><th></th></tr>{% for g in played %}<tr><td>{{ g.table }}</td>
<td>{{ title(g.game) }}</td><td>{% for p in g.players %}{{ p }} {{ g.scores[p] if g.scores and p in g.scores and g.scores[p] is not none else "–" }}{% if not loop.last %}, {% endif %}{% endfor %}</td>
<td>{{ (g.winners or [])|join(", ") }}</td><td>{% if g.has_course %}<a href="{% if g.id in shared %}tables/{{ g.table|urlencode }}/{% endif %}games/{{ g.id|urlencode }}?lang={{ lang }}">{{ t("Course") }}</a>{% endif %}</td></tr>
{% endfor %}</table></div>{% endif %}</body></html>"""

GAME = """<!doctype html><html lang="{{ lang }}"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1"><title>{{ heading }}</title>
<link rel="stylesheet" href="{{ url_for('static', filename='app.css') }}">
<link rel="stylesheet" href="{{ url_for('static', filename='course.css') }}"></head><body class="course-view"><main>
<p><a href="{{ home }}?lang={{ lang }}">{{ t("League standings") }}</a> · <a href="?lang=en">English</a> ·
<a href="?lang=fr">Français</a> · <a href="{{ rid|urlencode }}.json">JSON</a></p>
<h1>{{ heading }}</h1>
{% if res %}<p>{% for p in res.players %}{{ p }} {{ res.scores[p] if res.scores and p in res.scores and res.scores[p] is not none else "–" }}{% if p in (res.winners or []) %} ★{% endif %}{% if not loop.last %} · {% endif %}{% endfor %}</p>{% endif %}
{% if course %}{% include "_course.html" %}{% elif res %}<p>{{ t("This game's table sent no course.") }}</p>{% endif %}
{% if missing %}<p>{{ missing }}</p>{% endif %}
{% if choices %}<ul>{% for tbl in choices %}<li><a href="{{ home }}tables/{{ tbl|urlencode }}/games/{{ rid|urlencode }}?lang={{ lang }}">{{ t("Table") }} {{ tbl }}</a></li>{% endfor %}</ul>{% endif %}
</main></body></html>"""



class Drawer:
    """Each game's course drawn once per revision and language, kept (the newest :data:`KEEP`); one drawing
    at a time."""

    KEEP = 256

    def __init__(self, store: Any) -> None:
        self.store = store
        self._kept: OrderedDict[tuple[str, str, int, str], dict[str, Any] | None] = OrderedDict()
        self._lock = threading.Lock()
        self._drawing = threading.Lock()
        self._waiting: dict[tuple[str, str], None] = {}
        self._worker: threading.Thread | None = None
        self._idle = threading.Event()

    def drawn(self, table: str, rid: str, res: dict[str, Any], by_lang: dict[str, Any] | None, code: str,
              wait: bool = False) -> dict[str, Any] | None:
        """The course of ``table``'s game ``rid`` in ``code``, drawn; :class:`Busy` when another request is
        drawing and this one would have to (``wait``: it waits its turn, for :meth:`warm`)."""
        key = (table, rid, int(res.get("rev") or 0), code)
        with self._lock:
            if key in self._kept:
                self._kept.move_to_end(key)
                return self._kept[key]
        if not self._drawing.acquire(blocking=wait):
            raise Busy
        try:
            out = _drawn(by_lang, code, rid)
        finally:
            self._drawing.release()
        with self._lock:
            self._kept[key] = out
            while len(self._kept) > self.KEEP:
                self._kept.popitem(last=False)
        return out

    def warm(self, table: str, rid: str) -> None:
        """Draw a result just stored, in every language, before anyone asks (the league's subscriber calls it).

        On a thread of its own, the newest of each game once: the subscriber's loop goes straight back to
        the broker, however many or large the courses a table sends."""
        with self._lock:
            self._waiting[(table, rid)] = None
            self._idle.clear()
            if self._worker is None or not self._worker.is_alive():
                self._worker = threading.Thread(target=self._warm_all, name="league-drawer", daemon=True)
                self._worker.start()

    def _warm_all(self) -> None:
        while True:
            with self._lock:
                if not self._waiting:
                    self._worker = None
                    self._idle.set()
                    return
                self._idle.clear()
                table, rid = next(iter(self._waiting))
                del self._waiting[(table, rid)]
            try:
                found = self.store.course(rid, table)
                if found is not None and found[1] is not None:
                    for code in texts.LANGUAGES:
                        self.drawn(table, rid, found[0], found[1], code, wait=True)
            except Exception:  # noqa: BLE001 - drawn at the first request instead (which says what failed)
                log.exception("the charts of game %s of table %s could not be drawn ahead", rid, table)

    def settle(self, timeout: float = 10.0) -> bool:
        """Wait until every result stored so far is drawn (for tests and a clean stop)."""
        with self._lock:
            if self._worker is None:
                return True
        return self._idle.wait(timeout)


class Busy(Exception):
    """Another request is drawing a course: this one comes back in a moment."""


def create_app(store: Any) -> Flask:
    app = Flask(__name__)
    drawer = app.extensions["league_drawer"] = Drawer(store)
    cache: dict[str, Any] = {}
    cache_lock = threading.Lock()
    pages: OrderedDict[tuple[str, str, int, str, str], str] = OrderedDict()
    pages_lock = threading.Lock()

    def lang() -> str:
        asked = request.args.get("lang") or request.accept_languages.best_match(["en", "fr"]) or "en"
        return asked if asked in ("en", "fr") else "en"

    def current() -> dict[str, Any]:
        """The standings and the games, worked out once per change of the results."""
        revision = store.revision()
        with cache_lock:
            if cache.get("revision") != revision:
                played = store.games()
                ids = [g["id"] for g in played]
                cache.update(revision=revision, st=standings(store.records()), played=played,
                             shared={i for i in ids if ids.count(i) > 1})
            return dict(cache)

    @app.get("/")
    def page() -> str:
        code = lang()
        now = current()
        return render_template_string(PAGE, st=now["st"], played=now["played"], shared=now["shared"], lang=code,
                                      t=texts.translator(code), tn=texts.ntranslator(code), title=lambda game: _title(game, code))

    @app.get("/games/<rid>.json")
    @app.get("/tables/<table>/games/<rid>.json")
    def game_json(rid: str, table: str | None = None) -> Response:
        found = store.course(rid, table)
        if found is None:
            return _missing(rid, lang(), json=True, choices=store.tables_of(rid) if table is None else [])
        res, drawn = found
        return jsonify({"result": res, "course": drawn})

    @app.get("/games/<rid>")
    @app.get("/tables/<table>/games/<rid>")
    def game(rid: str, table: str | None = None) -> Response | str:
        code = lang()
        home = "../" if table is None else "../../../"
        found = store.course(rid, table)
        if found is None:
            return _missing(rid, code, choices=store.tables_of(rid) if table is None else [], home=home)
        res, by_lang = found
        key = (str(res.get("table")), rid, int(res.get("rev") or 0), code, home)
        with pages_lock:
            if key in pages:
                pages.move_to_end(key)
                return pages[key]
        try:
            drawn = drawer.drawn(str(res.get("table")), rid, res, by_lang, code)
        except Busy:
            out = Response(render_template_string(
                GAME, t=texts.translator(code), lang=code, rid=rid, res=res, home=home, choices=[], course=None,
                heading=texts.translator(code)("League standings"),
                missing=texts.render("The league is drawing another game's charts; try again in a moment.", {}, code)),
                mimetype="text/html")
            out.status_code = 503
            out.headers["Retry-After"] = "1"
            return out
        html = render_template_string(GAME, t=texts.translator(code), lang=code, rid=rid, res=res, home=home,
                                      choices=[], heading=f"{_title(str(res.get('game', '')), code)} · "
                                                          f"{texts.translator(code)('Table')} {res.get('table')}",
                                      course=drawn, missing=None)
        with pages_lock:  # the page itself is kept too: the next request only reads it
            pages[key] = html
            while len(pages) > Drawer.KEEP:
                pages.popitem(last=False)
        return html

    def _missing(rid: str, code: str, json: bool = False, choices: list[str] | None = None,
                 home: str = "../") -> Response:
        if choices:
            sentence = texts.render("Several tables sent a game {id}; each table's is below.", {"id": rid[:80]}, code)
        else:
            sentence = texts.render("The league has no game {id}.", {"id": rid[:80]}, code)
        if json:
            out = jsonify({"error": sentence, **({"tables": choices} if choices else {})})
        else:
            out = Response(render_template_string(GAME, t=texts.translator(code), lang=code, rid=rid[:80], res=None,
                                                  heading=texts.translator(code)("League standings"), course=None,
                                                  missing=sentence, choices=choices or [], home=home),
                           mimetype="text/html")
        out.status_code = 404
        return out

    @app.errorhandler(Exception)
    def unreadable(err: Exception) -> Response:
        """The league's database away (PostgreSQL restarting, the file gone): one sentence, 503, no traceback."""
        if isinstance(err, HTTPException):
            return err  # type: ignore[return-value]
        log.error("the league's page failed: %s", err, exc_info=err)
        sentence = texts.render("The league's standings cannot be read just now; try again in a moment.", {}, lang())
        out = jsonify({"error": sentence}) if request.path.endswith(".json") else \
            Response(f"<!doctype html><meta charset=utf-8><p>{escape(sentence)}</p>", mimetype="text/html")
        out.status_code = 503
        out.headers["Retry-After"] = "10"
        return out

    @app.get("/standings.json")
    def as_json() -> Response:
        return jsonify(current()["st"])

    @app.get("/standings.csv")
    def as_csv() -> Response:
        # the dashboard's defusing: a name a table sent cannot be a formula in the club's spreadsheet
        out = io.StringIO()
        csv.writer(out, quoting=csv.QUOTE_ALL).writerows([csv_cell(v) for v in row] for row in csv_rows(current()["st"]))
        return Response(out.getvalue(), mimetype="text/csv",
                        headers={"Content-Disposition": "attachment; filename=league.csv"})

    return app


def _title(game: str, code: str) -> str:
    """A game's title in the page's language (its id when this league does not know the game)."""
    try:
        return games.package(game).title(code)
    except Exception:  # noqa: BLE001 - a game installed at a table, not here
        return game


def _drawn(by_lang: dict[str, Any] | None, code: str, rid: str) -> dict[str, Any] | None:
    """The course in ``code`` (else in English, else in the language it came in) with its tables and SVGs."""
    if not by_lang:
        return None
    chosen = by_lang.get(code) or by_lang.get("en") or next(iter(by_lang.values()))
    out = shape.complete(copy.deepcopy(chosen), code)
    try:
        return with_svgs(out, prefix="league")
    except Exception:  # noqa: BLE001 - a course the charts cannot draw: its figures as tables only
        log.exception("the course of league game %s could not be drawn", rid)
        for ch in out["charts"]:
            ch["svg"] = ""
        return out
