#!/usr/bin/python3
"""What LeakIX's Python client (`leakix` 1.1) does for get_plugins and get_plugin, written from
spec/leakix-api.md ("What the two clients send") for test/interop/clients.test.ts; standard
library only (urllib), since the client itself cannot be fetched in CI.

Every call sends the headers `api-key` (possibly empty) and `accept: application/json`. A 200 body
is parsed as JSON (an empty body as []), 204 is an empty result, 429 a rate-limit response, and
anything else an error whose JSON body is parsed. Plugins are read into dataclasses by keyword
(`Plugin(**obj)`), so a missing or an unexpected member fails, as it would there.

    leakix_python.py BASE_URL API_KEY get_plugins        prints "ok" and one line per plugin
    leakix_python.py BASE_URL API_KEY get_plugin NAME    prints "ok NAME | DESCRIPTION",
                                                         or "error STATUS BODY_AS_JSON"
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


def main():
    base, key, call = sys.argv[1:4]
    client = Client(base, key)
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
