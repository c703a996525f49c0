//! Games as JSON objects (`pgnkit convert --to json`); the schema is in
//! `docs/convert.md`.

use pgnkit::convert::{PlayedLine, PlayedMove};
use pgnkit::pgn::{Command, Comment, CommentKind, Eval, Game, tag_name, unescape};
use pgnkit::replay::Played;
use pgnkit::replay::Replay;
use pgnkit::{EpMode, Position, Style, encoding};
use serde_json::{Map, Value, json};

/// The JSON object of one valid game.
///
/// `file`, the name of the game's input, is a field after `game` when it
/// is given (`--with-file`).
pub fn game(
    number: u64,
    file: Option<&str>,
    game: &Game<'_>,
    line: &PlayedLine<'_, '_>,
    replay: &Replay,
    start: &Position,
    fens: bool,
) -> Value {
    let tags: Vec<Value> = game
        .tags
        .iter()
        .map(|t| {
            json!([
                encoding::decode(t.name),
                encoding::decode(&unescape(t.value))
            ])
        })
        .collect();
    let mut out = Map::new();
    out.insert("game".into(), json!(number));
    if let Some(file) = file {
        out.insert("file".into(), json!(file));
    }
    out.insert("tags".into(), Value::Array(tags));
    out.insert("start".into(), json!(start.fen(EpMode::Always)));
    out.insert("moves".into(), moves(line, fens));
    out.insert("comments".into(), comments(&line.line.trailing_comments));
    out.insert(
        "result".into(),
        json!(game.result.map(|r| r.outcome.as_str())),
    );
    out.insert(
        "termination".into(),
        json!(replay.termination.map(|t| t.as_str())),
    );
    Value::Object(out)
}

fn moves(line: &PlayedLine<'_, '_>, fens: bool) -> Value {
    Value::Array(line.moves.iter().map(|m| one_move(m, fens)).collect())
}

fn one_move(m: &PlayedMove<'_, '_>, fens: bool) -> Value {
    let node = m.node;
    let (san, uci) = match m.played {
        Played::Move(_) => (m.text(Style::SAN), m.text(Style::UCI)),
        Played::Null => ("--".to_string(), "0000".to_string()),
    };
    let mut out = Map::new();
    out.insert("san".into(), json!(san));
    out.insert("uci".into(), json!(uci));
    if fens {
        out.insert("fen".into(), json!(m.after().fen(EpMode::Always)));
    }
    if !node.nags.is_empty() {
        out.insert("nags".into(), json!(node.nags));
    }
    if node.draw_offer {
        out.insert("draw_offer".into(), json!(true));
    }
    if !node.comments_before.is_empty() {
        out.insert("comments_before".into(), comments(&node.comments_before));
    }
    if !node.comments_after.is_empty() {
        out.insert("comments".into(), comments(&node.comments_after));
    }
    if !m.variations.is_empty() {
        let variations = m
            .variations
            .iter()
            .map(|v| {
                let mut line = Map::new();
                line.insert("moves".into(), moves(v, fens));
                if !v.line.trailing_comments.is_empty() {
                    line.insert("comments".into(), comments(&v.line.trailing_comments));
                }
                Value::Object(line)
            })
            .collect();
        out.insert("variations".into(), Value::Array(variations));
    }
    Value::Object(out)
}

fn comments(list: &[Comment<'_>]) -> Value {
    Value::Array(list.iter().map(comment).collect())
}

/// A comment: its text as written (decoded), `"line": true` for a `;`
/// comment, and the `[%clk]`, `[%emt]` and `[%eval]` commands it holds
/// (seconds; pawns, or mate in n moves).
fn comment(c: &Comment<'_>) -> Value {
    let text = encoding::decode(c.text);
    let mut out = Map::new();
    out.insert("text".into(), json!(text));
    if c.kind == CommentKind::Line {
        out.insert("line".into(), json!(true));
    }
    for command in Command::all(&text) {
        match command {
            Command::Clock(ms) => {
                out.insert("clk".into(), json!(seconds(ms)));
            }
            Command::Emt(ms) => {
                out.insert("emt".into(), json!(seconds(ms)));
            }
            Command::Eval(Eval::Centipawns(cp)) => {
                out.insert("eval".into(), json!(f64::from(cp) / 100.0));
            }
            Command::Eval(Eval::Mate(n)) => {
                out.insert("mate".into(), json!(n));
            }
        }
    }
    Value::Object(out)
}

/// Milliseconds in seconds.
pub fn seconds(ms: u64) -> f64 {
    ms as f64 / 1000.0
}

/// The PGN text of one game object as `--to json` writes it (`convert
/// --from json`): tags in order, the mainline's `san` moves with their
/// NAGs, draw offers, comments and variations, the result.
///
/// # Errors
/// A key missing or of the wrong type, named by its path in the object.
pub fn pgn_of_game(game: &Value) -> anyhow::Result<String> {
    let mut out = String::new();
    for (i, tag) in array(game, "tags", "")?.iter().enumerate() {
        let pair = tag
            .as_array()
            .filter(|p| p.len() == 2)
            .ok_or_else(|| anyhow::anyhow!("tags[{i}]: expected [name, value]"))?;
        let (Some(name), Some(value)) = (pair[0].as_str(), pair[1].as_str()) else {
            anyhow::bail!("tags[{i}]: expected strings");
        };
        // A name as the PGN reader takes it, which is what `--to json`
        // writes.
        if !matches!(tag_name(name.as_bytes()), Ok((rest, _)) if rest.is_empty()) {
            anyhow::bail!("tags[{i}]: {name:?} is not a tag name");
        }
        let value = value.replace('\\', "\\\\").replace('"', "\\\"");
        out.push_str(&format!("[{name} \"{value}\"]\n"));
    }
    out.push('\n');
    line_of(&mut out, array(game, "moves", "")?, "moves")?;
    comments_of(&mut out, game.get("comments"), "comments")?;
    match game.get("result") {
        None | Some(Value::Null) => {}
        Some(Value::String(r)) if matches!(r.as_str(), "1-0" | "0-1" | "1/2-1/2" | "*") => {
            out.push_str(r);
        }
        Some(other) => anyhow::bail!("result: {other} is not a game result"),
    }
    out.push_str("\n\n");
    Ok(out)
}

fn array<'v>(value: &'v Value, key: &str, at: &str) -> anyhow::Result<&'v Vec<Value>> {
    value
        .get(key)
        .and_then(Value::as_array)
        .ok_or_else(|| anyhow::anyhow!("{at}{key}: expected an array"))
}

fn comments_of(out: &mut String, list: Option<&Value>, at: &str) -> anyhow::Result<()> {
    let Some(list) = list else { return Ok(()) };
    let list = list
        .as_array()
        .ok_or_else(|| anyhow::anyhow!("{at}: expected an array"))?;
    for (i, c) in list.iter().enumerate() {
        let text = c
            .get("text")
            .and_then(Value::as_str)
            .ok_or_else(|| anyhow::anyhow!("{at}[{i}].text: expected a string"))?;
        if c.get("line").is_some_and(|l| l == true) {
            if text.contains(['\n', '\r']) {
                anyhow::bail!("{at}[{i}].text: a line comment holds a line break");
            }
            out.push_str(&format!(";{text}\n"));
        } else {
            if text.contains('}') {
                anyhow::bail!("{at}[{i}].text: a comment holds `}}`");
            }
            out.push_str(&format!("{{{text}}} "));
        }
    }
    Ok(())
}

// Recursion is as deep as the variations of the JSON, which serde_json
// bounds (128 levels by default).
fn line_of(out: &mut String, moves: &[Value], at: &str) -> anyhow::Result<()> {
    for (i, m) in moves.iter().enumerate() {
        let at = format!("{at}[{i}]");
        comments_of(
            out,
            m.get("comments_before"),
            &format!("{at}.comments_before"),
        )?;
        let san = m
            .get("san")
            .and_then(Value::as_str)
            .filter(|s| {
                !s.is_empty() && !s.contains(|c: char| c.is_whitespace() || "{}();[]$".contains(c))
            })
            .ok_or_else(|| anyhow::anyhow!("{at}.san: expected a move"))?;
        out.push_str(san);
        out.push(' ');
        if let Some(nags) = m.get("nags") {
            let nags = nags
                .as_array()
                .ok_or_else(|| anyhow::anyhow!("{at}.nags: expected an array"))?;
            for nag in nags {
                let nag = nag
                    .as_u64()
                    .filter(|n| *n <= 255)
                    .ok_or_else(|| anyhow::anyhow!("{at}.nags: {nag} is not a NAG"))?;
                out.push_str(&format!("${nag} "));
            }
        }
        if m.get("draw_offer").is_some_and(|d| d == true) {
            out.push_str("(=) ");
        }
        comments_of(out, m.get("comments"), &format!("{at}.comments"))?;
        if let Some(variations) = m.get("variations") {
            let variations = variations
                .as_array()
                .ok_or_else(|| anyhow::anyhow!("{at}.variations: expected an array"))?;
            for (j, v) in variations.iter().enumerate() {
                let vat = format!("{at}.variations[{j}]");
                out.push_str("( ");
                line_of(
                    out,
                    array(v, "moves", &format!("{vat}."))?,
                    &format!("{vat}.moves"),
                )?;
                comments_of(out, v.get("comments"), &format!("{vat}.comments"))?;
                out.push_str(") ");
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clock_and_eval_commands() {
        let c = Comment {
            text: b" [%eval #-3] [%clk 0:00:10.5] [%emt 0:00:02] ",
            kind: CommentKind::Brace,
            span: Default::default(),
        };
        assert_eq!(
            comment(&c),
            json!({"text": " [%eval #-3] [%clk 0:00:10.5] [%emt 0:00:02] ", "mate": -3, "clk": 10.5, "emt": 2.0})
        );
        let c = Comment {
            text: b"[%eval -0.17,30]",
            kind: CommentKind::Brace,
            span: Default::default(),
        };
        assert_eq!(
            comment(&c),
            json!({"text": "[%eval -0.17,30]", "eval": -0.17})
        );
    }
}
