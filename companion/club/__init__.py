"""The club: tables that speak to an MQTT broker, and the league that listens to them (the regroup
may move this package; it imports nothing from ``web``).

* :mod:`companion.club.settings` — the ``[mqtt]`` table of the config file;
* :mod:`companion.club.messages` — what a table says (status, story, results, Home Assistant discovery),
  built from the public view only;
* :mod:`companion.club.outbox` — those messages written in the journal's own transaction, so nothing is lost;
* :mod:`companion.club.publisher` — the thread that sends the outbox with QoS 1, marking a row sent on PUBACK;
* :mod:`companion.club.league` — ``companion league``'s standings across tables.
"""
