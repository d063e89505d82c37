/**
 * schema/types/python/l9kit_types.py: dataclasses (standard library only) with `from_dict` and
 * `to_dict`. Members the schema does not list are kept in `extra` and written back after the
 * listed ones, so a round trip loses nothing; an absent optional member stays absent; `raw` is
 * `bytes` (base64 text in JSON). The codecs are data (one tuple per member) read by two small
 * functions, so the generated text stays short and every class behaves the same.
 */
import { type Shape, type Struct, wrap } from './model.js'

function codec(shape: Shape): string {
  switch (shape.kind) {
    case 'int':
      return '("int",)'
    case 'array':
      return `("list", ${codec(shape.of)})`
    case 'map':
      return `("map", ${codec(shape.of)})`
    case 'struct':
      return `("struct", "${shape.name}")`
    case 'nullable':
      return `("null", ${codec(shape.of)})`
    default:
      return `("${shape.kind}",)`
  }
}

function hint(shape: Shape): string {
  switch (shape.kind) {
    case 'string':
      return 'str'
    case 'int':
      return 'int'
    case 'array':
      return `List[${hint(shape.of)}]`
    case 'map':
      return `Dict[str, ${hint(shape.of)}]`
    case 'struct':
      return `"${shape.name}"`
    case 'nullable':
      return `Optional[${hint(shape.of)}]`
    default:
      return shape.kind
  }
}

function initial(shape: Shape, optional: boolean): string {
  if (optional) return 'None'
  switch (shape.kind) {
    case 'string':
      return '""'
    case 'bytes':
      return 'b""'
    case 'bool':
      return 'False'
    case 'int':
      return '0'
    case 'float':
      return '0.0'
    case 'array':
      return 'field(default_factory=list)'
    case 'map':
      return 'field(default_factory=dict)'
    case 'struct':
      return `field(default_factory=lambda: ${shape.name}())`
    case 'nullable':
      return 'None'
  }
}

function struct(s: Struct): string[] {
  const doc = wrap(s.description, 92)
  return [
    '',
    '',
    '@dataclass',
    `class ${s.name}(_Document):`,
    `    """${doc.join('\n    ')}"""`,
    '',
    `    _MEMBERS = (`,
    ...s.members.map((m) => `        ("${m.json}", ${codec(m.shape)}, ${m.optional ? 'True' : 'False'}),`),
    '    )',
    '',
    ...s.members.flatMap((m) => [
      ...wrap(m.description + (m.optional ? ' None when absent (then not written).' : ''), 88).map((l) => `    # ${l}`),
      `    ${m.json}: ${m.optional ? `Optional[${hint(m.shape)}]` : hint(m.shape)} = ${initial(m.shape, m.optional)}`,
    ]),
    '    # Members the schema does not list, in the order they came; written back after the others.',
    '    extra: Dict[str, Any] = field(default_factory=dict)',
  ]
}

/** The codec functions every class shares (hand-written here, emitted once into the module). */
const RUNTIME = `

class DecodeError(ValueError):
    """A document that does not fit the types; the message starts with the JSON pointer."""


def _fail(path, expected, value):
    raise DecodeError("%s: expected %s, found %s" % (path or "/", expected, type(value).__name__))


def _decode(codec, value, path):
    kind = codec[0]
    if kind == "null":
        return None if value is None else _decode(codec[1], value, path)
    if kind == "string":
        return value if isinstance(value, str) else _fail(path, "a string", value)
    if kind == "bool":
        return value if isinstance(value, bool) else _fail(path, "a boolean", value)
    if kind == "int":
        ok = isinstance(value, int) and not isinstance(value, bool)
        return value if ok else _fail(path, "an integer", value)
    if kind == "float":
        ok = isinstance(value, (int, float)) and not isinstance(value, bool)
        return value if ok else _fail(path, "a number", value)
    if kind == "bytes":
        if not isinstance(value, str):
            _fail(path, "base64 text", value)
        try:
            return base64.b64decode(value, validate=True)
        except (binascii.Error, ValueError):
            raise DecodeError("%s: expected base64 text, found %r" % (path, value[:40]))
    if kind == "list":
        if not isinstance(value, list):
            _fail(path, "an array", value)
        return [_decode(codec[1], item, "%s/%d" % (path, i)) for i, item in enumerate(value)]
    if kind == "map":
        if not isinstance(value, dict):
            _fail(path, "an object", value)
        return {k: _decode(codec[1], v, "%s/%s" % (path, _token(k))) for k, v in value.items()}
    return _CLASSES[codec[1]]._from(value, path)


def _encode(codec, value):
    kind = codec[0]
    if value is None:
        return None
    if kind == "null":
        return _encode(codec[1], value)
    if kind == "bytes":
        return base64.b64encode(value).decode("ascii")
    if kind == "list":
        return [_encode(codec[1], item) for item in value]
    if kind == "map":
        return {k: _encode(codec[1], v) for k, v in value.items()}
    if kind == "struct":
        return value.to_dict()
    return value


def _token(name):
    return name.replace("~", "~0").replace("/", "~1")


class _Document:
    _MEMBERS = ()

    @classmethod
    def from_dict(cls, data):
        """Builds the object from a parsed JSON object (json.loads); raises DecodeError."""
        return cls._from(data, "")

    @classmethod
    def _from(cls, data, path):
        if not isinstance(data, dict):
            _fail(path, "an object", data)
        values = {}
        for name, codec, optional in cls._MEMBERS:
            if name in data:
                values[name] = _decode(codec, data[name], "%s/%s" % (path, name))
            elif not optional:
                raise DecodeError("%s/%s: member is missing" % (path, name))
        values["extra"] = {k: v for k, v in data.items() if k not in cls._NAMES}
        return cls(**values)

    def to_dict(self):
        """The JSON object (for json.dumps): every listed member in schema order, then extra."""
        out = {}
        for name, codec, optional in self._MEMBERS:
            value = getattr(self, name)
            if not (optional and value is None):
                out[name] = _encode(codec, value)
        for name, value in self.extra.items():
            out.setdefault(name, value)
        return out

    @classmethod
    def from_json(cls, text):
        return cls.from_dict(json.loads(text))

    def to_json(self):
        """Compact JSON text, non-ASCII written as UTF-8 (as l9kit writes it)."""
        return json.dumps(self.to_dict(), ensure_ascii=False, separators=(",", ":"))`

export function pythonFiles(structs: Struct[], version: string): { path: string; text: string }[] {
  const text = [
    '# Generated by `npm run generate` from schema/*.schema.json. Do not edit by hand.',
    `"""The l9format event document (schema ${version}) and the lookup API's answers as dataclasses.`,
    '',
    'Standard library only. `Event.from_dict(json.loads(text))` decodes, `event.to_dict()` gives the',
    'JSON object back with every member, including members the schema does not list (`extra`).',
    '"""',
    '',
    'from __future__ import annotations',
    '',
    'import base64',
    'import binascii',
    'import json',
    'from dataclasses import dataclass, field',
    'from typing import Any, Dict, List, Optional',
    '',
    `SCHEMA_VERSION = "${version}"`,
    RUNTIME,
    ...structs.flatMap(struct),
    '',
    '',
    `_CLASSES = {${structs.map((s) => `"${s.name}": ${s.name}`).join(', ')}}`,
    'for _cls in _CLASSES.values():',
    '    _cls._NAMES = frozenset(name for name, _, _ in _cls._MEMBERS)',
    '',
    `__all__ = ["DecodeError", "SCHEMA_VERSION", ${structs.map((s) => `"${s.name}"`).join(', ')}]`,
    '',
  ].join('\n')
  return [{ path: 'schema/types/python/l9kit_types.py', text }]
}
