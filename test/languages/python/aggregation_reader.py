#!/usr/bin/python3
"""Reads aggregation lines (one line of GET /bulk/search each) by the reading rules of the format
owner's Python library, as docs/specification.md states them: dataclasses with the members and types
listed there; every member must be present (a member absent from the document is an error unless
its type is Optional) and `null` is refused wherever the type is not Optional. Written from the
facts for test/service/aggregate.test.ts; standard library only.

    aggregation_reader.py < lines.jsonl   one output line per input line:
                                          "ok RESOURCE_ID EVENTS" or "error: POINTER: why"
"""

import dataclasses
import datetime
import json
import re
import sys
import typing
from typing import Dict, List, Optional


@dataclasses.dataclass
class Location:
    lat: float
    lon: float


@dataclasses.dataclass
class GeoLocation:
    continent_name: str
    region_iso_code: str
    city_name: str
    country_iso_code: str
    country_name: str
    region_name: str
    location: Location


@dataclasses.dataclass
class Network:
    organization_name: str
    asn: int
    network: str


@dataclasses.dataclass
class L9HttpEvent:
    root: str
    url: str
    status: int
    length: int
    header: Optional[Dict[str, str]]
    title: str
    favicon_hash: str


@dataclasses.dataclass
class Certificate:
    cn: str
    domain: Optional[List[str]]
    fingerprint: str
    key_algo: str
    key_size: int
    issuer_name: str
    not_before: datetime.datetime
    not_after: datetime.datetime
    valid: bool


@dataclasses.dataclass
class L9SSLEvent:
    detected: bool
    enabled: bool
    jarm: str
    cypher_suite: str
    version: str
    certificate: Certificate


@dataclasses.dataclass
class L9SSHEvent:
    fingerprint: str
    version: int
    banner: str
    motd: str


@dataclasses.dataclass
class ServiceCredentials:
    noauth: bool
    username: str
    password: str
    key: str
    raw: Optional[str]


@dataclasses.dataclass
class SoftwareModule:
    name: str
    version: str
    fingerprint: str


@dataclasses.dataclass
class Software:
    name: str
    version: str
    os: str
    modules: Optional[List[SoftwareModule]]
    # The port requires it (facts.md), although the specification lets it be omitted.
    fingerprint: str


@dataclasses.dataclass
class L9ServiceEvent:
    credentials: ServiceCredentials
    software: Software


@dataclasses.dataclass
class DatasetSummary:
    rows: int
    files: int
    size: int
    collections: int
    infected: bool
    ransom_notes: Optional[List[str]]


@dataclasses.dataclass
class L9LeakEvent:
    stage: str
    type: str
    severity: str
    dataset: DatasetSummary


@dataclasses.dataclass
class L9Event:
    event_type: str
    event_source: str
    event_pipeline: Optional[List[str]]
    event_fingerprint: str
    ip: str
    host: str
    reverse: str
    port: str
    mac: str
    vendor: str
    transport: Optional[List[str]]
    protocol: str
    http: L9HttpEvent
    summary: str
    time: datetime.datetime
    ssl: L9SSLEvent
    ssh: L9SSHEvent
    service: L9ServiceEvent
    leak: L9LeakEvent
    tags: Optional[List[str]]
    geoip: GeoLocation
    network: Network


@dataclasses.dataclass
class L9Aggregation:
    summary: str
    ip: str
    resource_id: str
    open_ports: List[str]
    leak_count: int
    leak_event_count: int
    events: List[L9Event]
    plugins: List[str]
    geoip: GeoLocation
    network: Network
    creation_date: datetime.datetime
    update_date: datetime.datetime
    fresh: bool


class ReadError(ValueError):
    pass


TIME = re.compile(r"^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2})(?:\.(\d{1,9}))?(Z|[+-]\d{2}:\d{2})$")


def read_time(value, path):
    # As the port: microseconds at most (further digits dropped), any offset.
    match = TIME.match(value) if isinstance(value, str) else None
    if match is None:
        raise ReadError("%s: expected an RFC 3339 time, found %r" % (path, value))
    whole, fraction, offset = match.groups()
    micro = (fraction or "").ljust(6, "0")[:6]
    return datetime.datetime.fromisoformat("%s.%s%s" % (whole, micro, "+00:00" if offset == "Z" else offset))


def read(kind, value, path):
    origin = typing.get_origin(kind)
    args = typing.get_args(kind)
    if origin is typing.Union:  # Optional[X]
        return None if value is None else read(args[0], value, path)
    if value is None:
        raise ReadError("%s: null where the type is %s" % (path, getattr(kind, "__name__", kind)))
    if origin is list:
        if not isinstance(value, list):
            raise ReadError("%s: expected a list" % path)
        return [read(args[0], item, "%s/%d" % (path, i)) for i, item in enumerate(value)]
    if origin is dict:
        if not isinstance(value, dict):
            raise ReadError("%s: expected an object" % path)
        return {k: read(args[1], v, "%s/%s" % (path, k)) for k, v in value.items()}
    if kind is datetime.datetime:
        return read_time(value, path)
    if dataclasses.is_dataclass(kind):
        if not isinstance(value, dict):
            raise ReadError("%s: expected an object" % path)
        hints = typing.get_type_hints(kind)
        values = {}
        for f in dataclasses.fields(kind):
            member = "%s/%s" % (path, f.name)
            if f.name not in value:
                if typing.get_origin(hints[f.name]) is typing.Union:
                    values[f.name] = None
                    continue
                raise ReadError("%s: member is missing" % member)
            values[f.name] = read(hints[f.name], value[f.name], member)
        return kind(**values)  # members the class does not list are ignored
    if kind is bool:
        ok = isinstance(value, bool)
    elif kind is int:
        ok = isinstance(value, int) and not isinstance(value, bool)
    elif kind is float:
        ok = isinstance(value, (int, float)) and not isinstance(value, bool)
    else:
        ok = isinstance(value, kind)
    if not ok:
        raise ReadError("%s: expected %s, found %s" % (path, kind.__name__, type(value).__name__))
    return value


def main():
    # Lines end at "\n" only: JSON text may hold U+2028 and other characters splitlines() splits on.
    for line in sys.stdin.read().split("\n"):
        if line == "":
            continue
        try:
            aggregation = read(L9Aggregation, json.loads(line), "")
            print("ok %s %d" % (aggregation.resource_id, len(aggregation.events)))
        except ReadError as error:
            print("error: %s" % error)


if __name__ == "__main__":
    main()
