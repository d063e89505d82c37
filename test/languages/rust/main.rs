//! The Rust side of test/languages/rust.test.ts, with the generated crate schema/types/rust.
//!
//!   roundtrip event|lookup|subdomains|error|report   each line of stdin a JSON document: decoded into the
//!                                       type, encoded again, one JSON line out; a document that
//!                                       does not decode prints "error: ..." instead
//!   roundtrip patterns                  the pattern matrix (test/languages/support.ts) with the
//!                                       regex crate: one line of 1/0 per pattern
use l9kit_types::{ConformReport, ErrorBody, Event, LookupResult, Subdomain};
use std::io::{self, Read, Write};

fn round_trip(kind: &str, line: &str) -> Result<String, String> {
    let text = match kind {
        "event" => serde_json::from_str::<Event>(line).and_then(|v| serde_json::to_string(&v)),
        "lookup" => serde_json::from_str::<LookupResult>(line).and_then(|v| serde_json::to_string(&v)),
        "subdomains" => serde_json::from_str::<Vec<Subdomain>>(line).and_then(|v| serde_json::to_string(&v)),
        "error" => serde_json::from_str::<ErrorBody>(line).and_then(|v| serde_json::to_string(&v)),
        "report" => serde_json::from_str::<ConformReport>(line).and_then(|v| serde_json::to_string(&v)),
        _ => return Err(format!("unknown kind {}", kind)),
    };
    text.map_err(|e| e.to_string())
}

fn unhex(line: &str) -> String {
    let bytes: Vec<u8> = (0..line.len()).step_by(2).map(|i| u8::from_str_radix(&line[i..i + 2], 16).expect("hex")).collect();
    String::from_utf8(bytes).expect("UTF-8")
}

fn patterns(lines: &[&str], out: &mut impl Write) {
    let count: usize = lines[0].trim().parse().expect("pattern count");
    let texts: Vec<String> = lines[1 + count..].iter().map(|l| unhex(l.trim())).collect();
    for line in &lines[1..1 + count] {
        let re = regex::Regex::new(&unhex(line.trim())).expect("pattern compiles");
        let row: String = texts.iter().map(|t| if re.is_match(t) { '1' } else { '0' }).collect();
        writeln!(out, "{}", row).unwrap();
    }
}

fn main() {
    let kind = std::env::args().nth(1).expect("usage: roundtrip event|lookup|subdomains|patterns");
    let mut input = String::new();
    io::stdin().read_to_string(&mut input).expect("stdin");
    let lines: Vec<&str> = input.split('\n').collect();
    let lines = &lines[..lines.len().saturating_sub(1)];
    let stdout = io::stdout();
    let mut out = io::BufWriter::new(stdout.lock());
    if kind == "patterns" {
        return patterns(lines, &mut out);
    }
    for line in lines {
        match round_trip(&kind, line) {
            Ok(text) => writeln!(out, "{}", text).unwrap(),
            Err(error) => writeln!(out, "error: {}", error).unwrap(),
        }
    }
}
