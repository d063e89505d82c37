#!/usr/bin/python3
"""Drives LeakIX's own Python client (../shared/peers/LeakIXClient-Python, imported unchanged) for
test/interop/python-client.test.ts. Reads one JSON object per line on standard input, a call:

    {"client": "sync" | "async", "method": NAME, "args": [...], "queries": [QUERY...]}

QUERY builds the client's own query and field classes:
    {"kind": "must" | "must_not" | "should", "field": CLASS, "args": [...], "op": ">" | "<" | "" | null}
    {"kind": "raw", "text": "..."}        {"kind": "empty"}
CLASS is a name from leakix.field; an argument {"date": "YYYY-MM-DD"} is a datetime, {"plugin": NAME}
a leakix.plugin.Plugin member; "op" is the Operator by its value (null: not given).

Writes one JSON object per call: {"q": what serialize_queries made (when queries were given),
"type": the response class, "status": status_code(), "items": a summary of json()} or
{"raised": "ExceptionClass: message"}. Summaries keep what the test judges: events as
[source, ip, port, time], aggregations as their members, plugins, subdomains, host results.
"""

import asyncio
import json
import sys
from datetime import datetime

from leakix import AsyncClient, Client, Scope
from leakix import field as fields
from leakix import query as queries
from leakix.plugin import Plugin
from l9format import l9format


def arg(value):
    if isinstance(value, dict) and "date" in value:
        return datetime.strptime(value["date"], "%Y-%m-%d")
    if isinstance(value, dict) and "plugin" in value:
        return Plugin[value["plugin"]]
    if isinstance(value, dict) and "scope" in value:
        return Scope(value["scope"])
    return value


def build(spec):
    kind = spec["kind"]
    if kind == "raw":
        return queries.RawQuery(spec["text"])
    if kind == "empty":
        return queries.EmptyQuery()
    cls = getattr(fields, spec["field"])
    args = [arg(a) for a in spec.get("args", [])]
    op = spec.get("op")
    if op is not None:
        args.append(fields.Operator(op))
    made = cls(*args)
    return {"must": queries.MustQuery, "must_not": queries.MustNotQuery, "should": queries.ShouldQuery}[kind](made)


def when(value):
    return value.isoformat() if isinstance(value, datetime) else value


def event(e):
    # HostResult declares `list[L9Event] | None`, which l9format 2.0.1's from_dict does not
    # unwrap (it knows typing.Optional only): get_host and get_domain give the JSON objects.
    if isinstance(e, dict):
        return [e["event_source"], e["ip"], e["port"], e["time"]]
    assert isinstance(e, l9format.L9Event), type(e)
    return [e.event_source, e.ip, e.port, when(e.time)]


def summary(value):
    if isinstance(value, l9format.L9Event):
        return event(value)
    if isinstance(value, l9format.L9Aggregation):
        return {
            "ip": value.ip,
            "resource_id": value.resource_id,
            "open_ports": value.open_ports,
            "leak_count": value.leak_count,
            "leak_event_count": value.leak_event_count,
            "plugins": value.plugins,
            "events": [event(e) for e in value.events],
            "dict_keys": sorted(value.to_dict().keys()),
        }
    if hasattr(value, "subdomain"):
        return [value.subdomain, value.distinct_ips, when(value.last_seen)]
    if hasattr(value, "description"):
        return [value.name, value.description]
    if isinstance(value, dict) and set(value.keys()) == {"services", "leaks"}:
        return {k: None if v is None else [event(e) for e in v] for k, v in value.items()}
    if isinstance(value, dict) and "event_source" in value:  # `get` leaves events as JSON objects
        return event(value)
    if isinstance(value, list):
        return [summary(v) for v in value]
    return value


def answer(response, q):
    out = {"type": type(response).__name__, "status": response.status_code(), "items": summary(response.json())}
    if q is not None:
        out["q"] = q
    return out


def paged(fn, method, args, qs):
    """Calls `fn` with its queries and page as keywords (`get`: the scope first)."""
    if method == "get":
        return fn(args[0], queries=qs, page=args[1] if len(args) > 1 else 0)
    if method in ("get_service", "get_leak"):
        return fn(queries=qs, page=args[0] if args else 0)
    if method in ("bulk_export", "bulk_export_last_event", "bulk_service"):
        return fn(qs)
    return fn(*args)


def sync_call(client, method, args, qs):
    if method == "bulk_export_stream":
        return {"type": "iterator", "items": [summary(a) for a in client.bulk_export_stream(qs)]}
    return paged(getattr(client, method), method, args, qs)


async def async_call(client, method, args, qs):
    if method == "bulk_export_stream":
        return {"type": "iterator", "items": [summary(a) async for a in client.bulk_export_stream(qs)]}
    return await paged(getattr(client, method), method, args, qs)


def main():
    url, key = sys.argv[1], sys.argv[2] or None
    sync_client = Client(api_key=key, base_url=url)

    async def run_async(calls):
        out = []
        # The context manager and close() are part of what is exercised.
        async with AsyncClient(api_key=key, base_url=url) as client:
            for call in calls:
                out.append(await one(call, client))
            await client.close()
            out.append({"closed": client._client is None})
        return out

    async def one(call, client):
        try:
            qs = [build(s) for s in call["queries"]] if "queries" in call else None
            q = queries.serialize_queries(qs) if "queries" in call else None
            response = await async_call(client, call["method"], [arg(a) for a in call.get("args", [])], qs)
        except Exception as e:  # the test judges what was raised
            return {"raised": f"{type(e).__name__}: {e}"}
        return response if isinstance(response, dict) else answer(response, q)

    calls = [json.loads(line) for line in sys.stdin if line.strip()]
    async_calls = [c for c in calls if c["client"] == "async"]
    async_out = iter(asyncio.run(run_async(async_calls))) if async_calls else iter([])
    for call in calls:
        if call["client"] == "async":
            print(json.dumps(next(async_out)))
            continue
        try:
            qs = [build(s) for s in call["queries"]] if "queries" in call else None
            q = queries.serialize_queries(qs) if "queries" in call else None
            response = sync_call(sync_client, call["method"], [arg(a) for a in call.get("args", [])], qs)
        except Exception as e:
            print(json.dumps({"raised": f"{type(e).__name__}: {e}"}))
            continue
        print(json.dumps(response if isinstance(response, dict) else answer(response, q)))
    if async_calls:
        print(json.dumps(next(async_out)))
    sys.stdout.flush()


if __name__ == "__main__":
    main()
