"""The league's page: standings across the club's tables, in English and French, with JSON and CSV.

Served by ``companion league`` (not by a table's dashboard); it reads the league's store only.
"""

from __future__ import annotations

import csv
import io
from typing import Any

from flask import Flask, Response, jsonify, render_template_string, request

from companion.club.league import csv_rows, standings
from companion.engine import texts

PAGE = """<!doctype html><html lang="{{ lang }}"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1"><title>{{ t("League standings") }}</title>
<style>body{font-family:system-ui,sans-serif;margin:1rem;max-width:60rem}table{border-collapse:collapse;margin:.5rem 0 1.5rem}
th,td{padding:.25rem .6rem;border-bottom:1px solid #ccc;text-align:left}td.n{text-align:right}</style></head><body>
<p><a href="?lang=en">English</a> · <a href="?lang=fr">Français</a> ·
<a href="standings.json">JSON</a> · <a href="standings.csv">CSV</a></p>
<h1>{{ t("League standings") }}</h1>
<p>{{ t("{n} games from {tables} tables.", n=st.games, tables=st.tables|length) }}</p>
{% macro rows(players) %}<table><tr><th>{{ t("Player") }}</th><th>{{ t("Played") }}</th><th>{{ t("Won") }}</th>
<th>{{ t("Points") }}</th></tr>{% for r in players %}<tr><td>{{ r.player }}</td><td class="n">{{ r.played }}</td>
<td class="n">{{ r.won }}</td><td class="n">{{ r.points }}</td></tr>{% endfor %}</table>{% endmacro %}
<h2>{{ t("Overall") }}</h2>{{ rows(st.overall) }}
{% for g in st.per_game %}<h2>{{ g.title }}</h2>{{ rows(g.players) }}{% endfor %}
{% for m in st.tournaments %}<h2>{{ t("Tournament {match} at table {table}", match=m.match, table=m.table) }}</h2>
{% for mode, v in m.modes.items() %}<h3>{{ mode }}{% if mode == m.mode %} ({{ t("chosen") }}){% endif %}</h3>
<table><tr><th>{{ t("Player") }}</th><th>{{ t("Points") }}</th></tr>{% for p, pts in v.totals.items() %}
<tr><td>{{ p }}{% if p in v.leaders %} ★{% endif %}</td><td class="n">{{ pts }}</td></tr>{% endfor %}</table>
{% endfor %}{% endfor %}</body></html>"""


def create_app(store: Any) -> Flask:
    app = Flask(__name__)

    def lang() -> str:
        asked = request.args.get("lang") or request.accept_languages.best_match(["en", "fr"]) or "en"
        return asked if asked in ("en", "fr") else "en"

    @app.get("/")
    def page() -> str:
        code = lang()
        return render_template_string(PAGE, st=standings(store.records()), lang=code, t=texts.translator(code))

    @app.get("/standings.json")
    def as_json() -> Response:
        return jsonify(standings(store.records()))

    @app.get("/standings.csv")
    def as_csv() -> Response:
        out = io.StringIO()
        csv.writer(out, quoting=csv.QUOTE_ALL).writerows(csv_rows(standings(store.records())))
        return Response(out.getvalue(), mimetype="text/csv",
                        headers={"Content-Disposition": "attachment; filename=league.csv"})

    return app
