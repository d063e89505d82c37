/**
 * schema/types/rust/: a crate of serde structs (serde with `derive`, and serde_json for the
 * members the schema does not list). Members in document order; an optional member is `Option`
 * that is skipped when `None` (never written `null`, and `null` on input is refused, as the
 * schema refuses it); a nullable one is `Option` written `null`; integers `i64` (Go's `int` and
 * `int64` on 64-bit); maps `BTreeMap`, so they serialise sorted byte-wise as Go does; `raw` is
 * `Option<Vec<u8>>`, base64 text in JSON, by a small codec in the crate (no base64 crate
 * needed). Every struct keeps members the schema does not list in `extra` (written back after
 * the listed ones), as the Python types do; a struct is read from a JSON object only (serde
 * would also take an array of the members' values: `flatten` makes it read a map).
 */
import { type Member, type Shape, type Struct, wrap } from './model.js'

const KEYWORDS = new Set(['type', 'match', 'ref', 'mod', 'use', 'fn', 'struct', 'enum', 'impl', 'trait', 'loop', 'move'])

const fieldName = (json: string) => {
  const snake = json.replace(/[A-Z]/g, (c, i: number) => (i === 0 ? c.toLowerCase() : `_${c.toLowerCase()}`))
  return KEYWORDS.has(snake) ? `r#${snake}` : snake
}

function rustType(shape: Shape): string {
  switch (shape.kind) {
    case 'string':
      return 'String'
    case 'bytes':
      return 'Vec<u8>'
    case 'bool':
      return 'bool'
    case 'int':
      return 'i64'
    case 'float':
      return 'f64'
    case 'array':
      return `Vec<${rustType(shape.of)}>`
    case 'map':
      return `BTreeMap<String, ${rustType(shape.of)}>`
    case 'struct':
      return shape.name
    case 'nullable':
      return `Option<${rustType(shape.of)}>`
  }
}

function member(m: Member): string[] {
  const attrs: string[] = []
  const name = fieldName(m.json)
  if (name.replace('r#', '') !== m.json) attrs.push(`rename = "${m.json}"`)
  const bytes = m.shape.kind === 'bytes' || (m.shape.kind === 'nullable' && m.shape.of.kind === 'bytes')
  if (bytes) attrs.push(`with = "${m.shape.kind === 'nullable' ? 'base64_option' : 'base64_bytes'}"`)
  const type = m.optional ? `Option<${rustType(m.shape)}>` : rustType(m.shape)
  if (m.optional) attrs.push('default', 'skip_serializing_if = "Option::is_none"')
  if (m.optional && !bytes) attrs.push('deserialize_with = "present::deserialize"')
  const doc = m.description + (m.optional ? ' `None` when absent; then not written.' : '')
  return [...wrap(doc, 92).map((l) => `    /// ${l}`), ...(attrs.length ? [`    #[serde(${attrs.join(', ')})]`] : []), `    pub ${name}: ${type},`]
}

function struct(s: Struct): string[] {
  return [
    ...wrap(s.description, 96).map((l) => `/// ${l}`),
    '#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]',
    `pub struct ${s.name} {`,
    ...s.members.flatMap(member),
    '    /// Members the schema does not list, kept as they came and written after the others.',
    '    #[serde(flatten)]',
    '    pub extra: BTreeMap<String, serde_json::Value>,',
    '}',
    '',
  ]
}

/** Padded standard base64 for `raw`, hand-written once here and emitted into the crate. */
const BASE64 = `/// Padded standard base64 (RFC 4648), as Go writes a \`[]byte\`.
pub mod base64_bytes {
    use serde::{de::Error, Deserialize, Deserializer, Serializer};

    const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

    pub fn encode(bytes: &[u8]) -> String {
        let mut out = String::with_capacity((bytes.len() + 2) / 3 * 4);
        for chunk in bytes.chunks(3) {
            let n = (chunk[0] as u32) << 16 | (*chunk.get(1).unwrap_or(&0) as u32) << 8 | *chunk.get(2).unwrap_or(&0) as u32;
            for i in 0..4 {
                out.push(if i <= chunk.len() { ALPHABET[(n >> (18 - 6 * i) & 63) as usize] as char } else { '=' });
            }
        }
        out
    }

    /// None when the text is not padded standard base64.
    pub fn decode(text: &str) -> Option<Vec<u8>> {
        let bytes = text.as_bytes();
        if bytes.len() % 4 != 0 {
            return None;
        }
        let mut out = Vec::with_capacity(bytes.len() / 4 * 3);
        let chunks = bytes.len() / 4;
        for (index, chunk) in bytes.chunks(4).enumerate() {
            let pad = chunk.iter().rev().take_while(|&&c| c == b'=').count();
            if pad > 2 || (pad > 0 && index + 1 != chunks) {
                return None;
            }
            let mut n = 0u32;
            for &c in &chunk[..4 - pad] {
                n = n << 6 | ALPHABET.iter().position(|&a| a == c)? as u32;
            }
            n <<= 6 * pad as u32;
            out.extend_from_slice(&[(n >> 16) as u8, (n >> 8) as u8, n as u8][..3 - pad]);
        }
        Some(out)
    }

    pub fn serialize<S: Serializer>(value: &[u8], serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(&encode(value))
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Vec<u8>, D::Error> {
        let text = String::deserialize(deserializer)?;
        decode(&text).ok_or_else(|| D::Error::custom("expected padded standard base64 text"))
    }
}

/// An optional member: absent is \`None\`; present, it must hold a value (\`null\` is refused, as the
/// schema refuses it: leave the member out instead).
pub mod present {
    use serde::{de::Error, Deserialize, Deserializer};

    pub fn deserialize<'de, D: Deserializer<'de>, T: Deserialize<'de>>(deserializer: D) -> Result<Option<T>, D::Error> {
        match Option::<T>::deserialize(deserializer)? {
            Some(value) => Ok(Some(value)),
            None => Err(D::Error::custom("null is not allowed for an optional member: leave it out")),
        }
    }
}

/// \`Option<Vec<u8>>\` as base64 text or \`null\`.
pub mod base64_option {
    use serde::{de::Error, Deserialize, Deserializer, Serializer};

    pub fn serialize<S: Serializer>(value: &Option<Vec<u8>>, serializer: S) -> Result<S::Ok, S::Error> {
        match value {
            Some(bytes) => serializer.serialize_str(&super::base64_bytes::encode(bytes)),
            None => serializer.serialize_none(),
        }
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Option<Vec<u8>>, D::Error> {
        match Option::<String>::deserialize(deserializer)? {
            Some(text) => super::base64_bytes::decode(&text).map(Some).ok_or_else(|| D::Error::custom("expected padded standard base64 text")),
            None => Ok(None),
        }
    }
}
`

export function rustFiles(structs: Struct[], version: string): { path: string; text: string }[] {
  const lib = [
    '// Generated by `npm run generate` from schema/*.schema.json. Do not edit by hand.',
    `//! The l9format event document (schema ${version}) and the lookup API's answers as serde structs.`,
    '//!',
    '//! `serde_json::from_slice::<Event>(bytes)` decodes a canonical document and',
    '//! `serde_json::to_vec(&event)` gives the same JSON value back.',
    '',
    'use serde::{Deserialize, Serialize};',
    'use std::collections::BTreeMap;',
    '',
    `pub const SCHEMA_VERSION: &str = "${version}";`,
    '',
    ...structs.flatMap(struct),
    BASE64,
  ].join('\n')
  const cargo = [
    '[package]',
    'name = "l9kit-types"',
    `version = "${version}"`,
    'edition = "2021"',
    'description = "The l9format event document and the lookup API answers as serde structs (generated by l9kit)"',
    'license = "MIT"',
    '',
    '[lib]',
    'path = "lib.rs"',
    '',
    '[dependencies]',
    'serde = { version = "1", features = ["derive"] }',
    'serde_json = "1"',
    '',
  ].join('\n')
  return [
    { path: 'schema/types/rust/lib.rs', text: lib },
    { path: 'schema/types/rust/Cargo.toml', text: cargo },
  ]
}
