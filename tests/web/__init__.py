"""The dashboard (web/): routes, pages, secrets, streams, and the browser suites."""
