#!/usr/bin/python3
"""What LeakIX's Python client (`leakix` 1.1) does for get_plugins, get_plugin, search and the bulk calls, written from
docs/specification.md ("What the two clients send") for test/interop/clients.test.ts; standard
library only (urllib), since the client itself cannot be fetched in CI.

Every call sends the headers `api-key` (possibly empty) and `accept: application/json`. A 200 body
is parsed as JSON (an empty body as []), 204 is an empty result, 429 a rate-limit response, and
anything else an error whose JSON body is parsed. Plugins are read into dataclasses by keyword
(`Plugin(**obj)`), so a missing or an unexpected member fails, as it would there.

    leakix_python.py BASE_URL API_KEY get_plugins        prints "ok" and one line per plugin
    leakix_python.py BASE_URL API_KEY get_plugin NAME    prints "ok NAME | DESCRIPTION",
                                                         or "error STATUS BODY_AS_JSON"
    leakix_python.py BASE_URL API_KEY search SCOPE PAGE TERMS_JSON
        TERMS_JSON: [[KIND, FIELD, OPERATOR, VALUE], ...], KIND must | must_not | should,
        OPERATOR "" | ">" | "<", VALUE a string, an integer or {"date": "YYYY-MM-DD"};
        prints the request target, then "ok N" and "SOURCE IP TIME" per event,
        or "error STATUS BODY_AS_JSON"

Search queries are serialised as the client's query classes do: terms joined by one space, must
`+field:value`, must-not `-field:value`, should `field:value`, ranges `field:>value`, dates in double
quotes, no terms `*`; `scope`, `q` and `page` go as query parameters (form encoding, as the
`requests` library writes `params`: space as `+`).

Bulk calls send only `q` (urlencoded as the client's HTTP library does: a space as `+`, a `+` as
`%2B`), read the answer as a stream and parse each non-empty line as JSON; 204 is nothing.
bulk_export and bulk_export_stream read each line as an aggregation, with the format owner's
library's rules (test/languages/python/aggregation_reader.py: every member present, no null where
the type is not Optional); bulk_export_last_event keeps each aggregation's newest event (its events
sorted by time, newest first); bulk_service reads each line as an event.

    leakix_python.py BASE_URL API_KEY bulk_export QUERY             "ok N", then "RESOURCE leak_count leak_event_count PORTS"
    leakix_python.py BASE_URL API_KEY bulk_export_last_event QUERY  "ok N", then "RESOURCE TIME SOURCE PORT"
    leakix_python.py BASE_URL API_KEY bulk_export_stream QUERY      "RESOURCE EVENTS" per line as it arrives, then "end"
    leakix_python.py BASE_URL API_KEY bulk_service QUERY            "ok N", then "IP PORT SOURCE"
"""

import dataclasses
import json
import os
import sys
import urllib.error
import urllib.parse
import urllib.request

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "languages", "python"))
from aggregation_reader import L9Aggregation, L9Event, read  # noqa: E402


@dataclasses.dataclass
class Plugin:
    name: str
    description: str


@dataclasses.dataclass
class PluginWithCounts:
    name: str
    description: str
    event_count1h: int
    event_count24h: int
    event_count7d: int


class BulkError(Exception):
    def __init__(self, status, body):
        super().__init__(status)
        self.status = status
        self.body = body


class Client:
    def __init__(self, base_url, api_key=""):
        self.base_url = base_url.rstrip("/")
        self.headers = {"api-key": api_key, "accept": "application/json"}

    def _get(self, path):
        self.last_target = path
        request = urllib.request.Request(self.base_url + path, headers=self.headers)
        try:
            with urllib.request.urlopen(request, timeout=10) as response:
                status, body = response.status, response.read()
        except urllib.error.HTTPError as error:
            status, body = error.code, error.read()
        if status == 200:
            return ("ok", json.loads(body) if body.strip() else [])
        if status == 204:
            return ("ok", [])
        if status == 429:
            return ("rate_limited", None)
        return ("error", status, json.loads(body) if body.strip() else None)

    def _stream(self, path, query):
        """Yields each non-empty line of a streamed answer, parsed; raises on a status other than 200/204."""
        url = self.base_url + path + "?" + urllib.parse.urlencode({"q": query})
        request = urllib.request.Request(url, headers=self.headers)
        try:
            response = urllib.request.urlopen(request, timeout=10)
        except urllib.error.HTTPError as error:
            body = error.read()
            raise BulkError(error.code, json.loads(body) if body.strip() else None)
        with response:
            if response.status == 204:
                return
            for line in response:  # read as it arrives, one line at a time
                if line.strip():
                    yield json.loads(line)

    def bulk_export_stream(self, query):
        for obj in self._stream("/bulk/search", query):
            yield read(L9Aggregation, obj, "")

    def bulk_export(self, query):
        try:
            return ("ok", list(self.bulk_export_stream(query)))
        except BulkError as error:
            return ("error", error.status, error.body)

    def bulk_export_last_event(self, query):
        result = self.bulk_export(query)
        if result[0] != "ok":
            return result
        last = []
        for aggregation in result[1]:
            events = sorted(aggregation.events, key=lambda e: e.time, reverse=True)
            last.append((aggregation, events[0]))
        return ("ok", last)

    def bulk_service(self, query):
        try:
            return ("ok", [read(L9Event, obj, "") for obj in self._stream("/bulk/service", query)])
        except BulkError as error:
            return ("error", error.status, error.body)

    def get_plugins(self):
        result = self._get("/api/plugins")
        if result[0] != "ok":
            return result
        return ("ok", [PluginWithCounts(**item) for item in result[1]])

    def get_plugin(self, name):
        result = self._get("/api/plugins/" + urllib.parse.quote(name, safe=""))
        if result[0] != "ok":
            return result
        return ("ok", Plugin(**result[1]))

    def search(self, query, scope="leak", page=0):
        params = urllib.parse.urlencode({"scope": scope, "q": query.serialize(), "page": page})
        result = self._get("/search?" + params)
        if result[0] != "ok":
            return result
        return ("ok", [event_of(item) for item in result[1]])


@dataclasses.dataclass
class Term:
    kind: str
    field: str
    operator: str
    value: object

    def serialize(self):
        sign = {"must": "+", "must_not": "-", "should": ""}[self.kind]
        value = self.value
        if isinstance(value, dict):
            value = '"%s"' % value["date"]
        return "%s%s:%s%s" % (sign, self.field, self.operator, value)


@dataclasses.dataclass
class Query:
    terms: list

    def serialize(self):
        if not self.terms:
            return "*"
        return " ".join(term.serialize() for term in self.terms)


@dataclasses.dataclass
class Event:
    """The few members read here; every event must have them with these types."""

    event_source: str
    ip: str
    time: str
    event_type: str


def event_of(item):
    names = [f.name for f in dataclasses.fields(Event)]
    event = Event(**{name: item[name] for name in names})
    for f in dataclasses.fields(Event):
        if not isinstance(getattr(event, f.name), str):
            raise TypeError("%s is not a string" % f.name)
    return event


def main():
    base, key, call = sys.argv[1:4]
    client = Client(base, key)
    if call == "search":
        scope, page, terms = sys.argv[4], int(sys.argv[5]), json.loads(sys.argv[6])
        result = client.search(Query([Term(*t) for t in terms]), scope, page)
        print(client.last_target)
        if result[0] == "ok":
            print("ok %d" % len(result[1]))
            for e in result[1]:
                print("%s %s %s" % (e.event_source, e.ip, e.time))
        elif result[0] == "error":
            print("error %d %s" % (result[1], json.dumps(result[2])))
        else:
            print(result[0])
        return
    if call == "get_plugins":
        result = client.get_plugins()
        if result[0] != "ok":
            print(" ".join(str(part) for part in result))
            return
        print("ok")
        for p in result[1]:
            print("%s | %s | %d %d %d" % (p.name, p.description, p.event_count1h, p.event_count24h, p.event_count7d))
    elif call == "bulk_export_stream":
        try:
            for a in client.bulk_export_stream(sys.argv[4]):
                print("%s %d" % (a.resource_id, len(a.events)), flush=True)
            print("end")
        except BulkError as error:
            print("error %d %s" % (error.status, json.dumps(error.body)))
    elif call.startswith("bulk_"):
        result = getattr(client, call)(sys.argv[4])
        if result[0] != "ok":
            print("error %d %s" % (result[1], json.dumps(result[2])))
            return
        print("ok %d" % len(result[1]))
        for item in result[1]:
            if call == "bulk_export":
                print("%s %d %d %s" % (item.resource_id, item.leak_count, item.leak_event_count, ",".join(item.open_ports)))
            elif call == "bulk_export_last_event":
                print("%s %s %s %s" % (item[0].resource_id, item[1].time.isoformat(), item[1].event_source, item[1].port))
            else:
                print("%s %s %s" % (item.ip, item.port, item.event_source))
    else:
        result = client.get_plugin(sys.argv[4])
        if result[0] == "ok":
            print("ok %s | %s" % (result[1].name, result[1].description))
        elif result[0] == "error":
            print("error %d %s" % (result[1], json.dumps(result[2])))
        else:
            print(result[0])


if __name__ == "__main__":
    main()
