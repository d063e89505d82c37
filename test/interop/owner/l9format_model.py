#!/usr/bin/python3
"""The format owner's current event model (Python l9format 1.4.0+), reproduced from the facts
(shared spec leakix-api.md, "The format owner's current event model"), for
test/interop/owner-model.test.ts. The library itself is not reachable from CI, so this is our
own reading of its published shape: one optional object per protocol, every member optional,
strings unless marked, booleans for the yes/no names, the listed integers and string lists;
`ssh` with its four members and the optional extension. Loading checks every type; dumping
leaves out what is None, as the library does.

The specification's other members are not retyped here (test/languages/python does that with
the generated module): they are carried through as they came, so a dump is a whole event.

    l9format_model.py < events.jsonl    one dumped event per line, or "error: POINTER: why"
"""

import json
import sys
from dataclasses import MISSING, dataclass, fields
from typing import Any, Dict, List, Optional, get_args, get_origin, get_type_hints


class LoadError(ValueError):
    pass


@dataclass
class L9SSHEvent:
    fingerprint: str = ""
    version: int = 0
    banner: str = ""
    motd: str = ""
    key_type: Optional[str] = None
    key: Optional[str] = None
    kex_algorithms: Optional[List[str]] = None
    host_key_algorithms: Optional[List[str]] = None
    encryption_algorithms: Optional[List[str]] = None
    mac_algorithms: Optional[List[str]] = None
    compression_algorithms: Optional[List[str]] = None
    auth_methods: Optional[List[str]] = None


@dataclass
class L9VNCEvent:
    version: Optional[str] = None
    security_types: Optional[List[str]] = None
    noauth: Optional[bool] = None


@dataclass
class L9FTPEvent:
    banner: Optional[str] = None
    tls_supported: Optional[bool] = None
    anonymous: Optional[bool] = None


@dataclass
class L9SMTPEvent:
    banner: Optional[str] = None
    starttls: Optional[bool] = None
    extensions: Optional[List[str]] = None


@dataclass
class L9TelnetEvent:
    banner: Optional[str] = None
    options: Optional[List[str]] = None
    auth_required: Optional[bool] = None


@dataclass
class L9RedisEvent:
    version: Optional[str] = None
    mode: Optional[str] = None
    os: Optional[str] = None
    auth_required: Optional[bool] = None


@dataclass
class L9MySQLEvent:
    version: Optional[str] = None
    protocol_version: Optional[int] = None
    auth_plugin: Optional[str] = None
    server_status: Optional[str] = None


@dataclass
class L9PostgreSQLEvent:
    version: Optional[str] = None
    databases: Optional[List[str]] = None
    ssl_enabled: Optional[bool] = None
    auth_method: Optional[str] = None
    server_encoding: Optional[str] = None
    client_encoding: Optional[str] = None
    timezone: Optional[str] = None
    max_connections: Optional[int] = None


@dataclass
class L9MongoDBEvent:
    version: Optional[str] = None
    databases: Optional[List[str]] = None
    auth_required: Optional[bool] = None
    wire_version: Optional[int] = None


@dataclass
class L9MemcachedEvent:
    version: Optional[str] = None
    libevent: Optional[str] = None
    curr_items: Optional[int] = None
    total_items: Optional[int] = None
    bytes: Optional[int] = None
    max_bytes: Optional[int] = None
    cmd_get: Optional[int] = None
    cmd_set: Optional[int] = None
    get_hits: Optional[int] = None
    get_misses: Optional[int] = None
    threads: Optional[int] = None


@dataclass
class L9AMQPEvent:
    protocol_major: Optional[int] = None
    protocol_minor: Optional[int] = None
    product: Optional[str] = None
    version: Optional[str] = None
    platform: Optional[str] = None


@dataclass
class L9LDAPEvent:
    naming_contexts: Optional[List[str]] = None
    supported_versions: Optional[List[str]] = None
    vendor_name: Optional[str] = None
    vendor_version: Optional[str] = None
    supported_sasl: Optional[List[str]] = None
    anonymous_bind: Optional[bool] = None
    can_enumerate: Optional[bool] = None


@dataclass
class L9SIPEvent:
    version: Optional[str] = None
    user_agent: Optional[str] = None
    server: Optional[str] = None
    allow: Optional[List[str]] = None
    supported: Optional[List[str]] = None


@dataclass
class L9RDPEvent:
    product_version: Optional[str] = None
    nla_required: Optional[bool] = None
    ssl_enabled: Optional[bool] = None
    hostname: Optional[str] = None


@dataclass
class L9DNSEvent:
    software: Optional[str] = None
    version: Optional[str] = None
    recursion: Optional[bool] = None
    dnssec: Optional[bool] = None
    zone_transfer: Optional[bool] = None
    nameservers: Optional[List[str]] = None


@dataclass
class L9RTSPEvent:
    server: Optional[str] = None
    methods: Optional[List[str]] = None


@dataclass
class L9Event:
    """The protocol part of an event, typed; `other` is every other member, in its order."""

    ssh: L9SSHEvent
    vnc: Optional[L9VNCEvent] = None
    ftp: Optional[L9FTPEvent] = None
    smtp: Optional[L9SMTPEvent] = None
    telnet: Optional[L9TelnetEvent] = None
    redis: Optional[L9RedisEvent] = None
    mysql: Optional[L9MySQLEvent] = None
    postgresql: Optional[L9PostgreSQLEvent] = None
    mongodb: Optional[L9MongoDBEvent] = None
    memcached: Optional[L9MemcachedEvent] = None
    amqp: Optional[L9AMQPEvent] = None
    ldap: Optional[L9LDAPEvent] = None
    sip: Optional[L9SIPEvent] = None
    rdp: Optional[L9RDPEvent] = None
    dns: Optional[L9DNSEvent] = None
    rtsp: Optional[L9RTSPEvent] = None
    other: Optional[Dict[str, Any]] = None


def _is_model(hint):
    return isinstance(hint, type) and hasattr(hint, "__dataclass_fields__")


def _check(hint, value, path):
    """`value` if it has the type `hint` says (an Optional one: None too), else LoadError."""
    if type(None) in get_args(hint):
        if value is None:
            return None
        (hint,) = [a for a in get_args(hint) if a is not type(None)]
    if _is_model(hint):
        return load(hint, value, path)
    if get_origin(hint) is list:
        if isinstance(value, list):
            return [_check(get_args(hint)[0], item, "%s/%d" % (path, i)) for i, item in enumerate(value)]
        ok = False
    elif hint is bool:
        ok = isinstance(value, bool)
    elif hint is int:
        ok = isinstance(value, int) and not isinstance(value, bool)
    else:
        ok = isinstance(value, hint)
    if not ok:
        raise LoadError("%s: expected %s, found %s" % (path, getattr(hint, "__name__", str(hint)), json.dumps(value)))
    return value


def load(cls, data, path=""):
    """An object of the dataclass `cls` from parsed JSON; members it does not know are ignored."""
    if not isinstance(data, dict):
        raise LoadError("%s: expected an object, found %s" % (path or "/", type(data).__name__))
    hints = get_type_hints(cls)
    values = {}
    for f in fields(cls):
        if f.name == "other":
            continue
        if f.name in data:
            values[f.name] = _check(hints[f.name], data[f.name], "%s/%s" % (path, f.name))
        elif f.default is MISSING:
            raise LoadError("%s/%s: member is missing" % (path, f.name))
    return cls(**values)


def dump(value):
    """Parsed JSON of a dataclass object: members in declaration order, None left out."""
    out = {}
    for f in fields(value):
        member = getattr(value, f.name)
        if member is not None and f.name != "other":
            out[f.name] = dump(member) if _is_model(type(member)) else member
    return out


def load_event(data):
    event = load(L9Event, data)
    event.other = {k: v for k, v in data.items() if k not in L9Event.__dataclass_fields__}
    return event


def dump_event(event):
    """The whole event: the other members in their order, `ssh` after `ssl`, then the protocol objects."""
    typed = dump(event)
    out = {}
    for name, value in event.other.items():
        out[name] = value
        if name == "ssl":
            out["ssh"] = typed.pop("ssh")
    out.update(typed)
    return out


def main():
    for line in sys.stdin.read().split("\n")[:-1]:
        try:
            print(json.dumps(dump_event(load_event(json.loads(line))), ensure_ascii=False, separators=(",", ":")))
        except LoadError as error:
            print("error: %s" % error)


if __name__ == "__main__":
    main()
