#!/usr/bin/python3
"""What LeakIX's Python client (`leakix` 1.1) does for get_plugins, get_plugin and search, written from
spec/leakix-api.md ("What the two clients send") for test/interop/clients.test.ts; standard
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
"""

import dataclasses
import json
import sys
import urllib.error
import urllib.parse
import urllib.request


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
